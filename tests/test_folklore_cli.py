"""The folklore TRPG through the command line: vectors T1 … T13 with --faces (T14 healing and T15
the end of combat are not attacks: tests/test_folklore.py), reach, odds, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.rules.folklore import checks as fc

MAP = str(Path(__file__).resolve().parent / "data" / "rules" / "folklore.tmx")


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# (vector, attacker, target, weapon, faces "hit | dodge | damage | death", expected outcome items)
VECTORS = [
    (
        "T1",
        "Aya",
        "Imp",
        "Bolt",
        "5 5 | 1 2 | 1 | 3 4",
        {
            "incapacitated": True,
            "death_check": {"dice": [3, 4], "target": 7, "survives": True},
            "dead": False,
        },
    ),
    ("T1", "Aya", "Imp", "Bolt", "5 5 | 1 2 | 1 | 2 4", {"dead": True}),
    ("T2", "Aya", "Imp", "Bolt", "5 5 | 1 2 | 1 | 6 6", {"dead": False}),
    (
        "T2",
        "Aya",
        "Ghost",
        "Bolt",
        "5 5 | 1 2 | 1 | 1 1",
        {"death_check": {"dice": [1, 1], "target": 1, "survives": False}, "dead": True},
    ),
    ("T3", "Aya", "Oni", "Bolt", "3 5 | 4 5", {"hit_total": 12, "dodge_total": 12, "hit": False}),
    (
        "T4",
        "Aya",
        "Oni",
        "Bolt",
        "6 6 | 2 3 | 4 3 5",
        {"hit_total": 16, "critical": True, "damage": 12, "real_damage": 9, "hp": 11},
    ),
    ("T5", "Aya", "Oni", "Bolt", "6 6 | 6 6", {"critical": True, "hit": False}),
    ("T6", "Tomoe", "Oni", "Bolt", "6 6 6 | 1 2 | 1 1 1 1", {"critical": True, "damage": 4}),
    ("T7", "Aya", "Oni", "Bolt", "1 1 | 1 2", {"fumble": True, "hit": False}),
    ("T8", "Aya", "Turtle", "Bolt", "5 5 | 1 2 | 5", {"damage": 5, "real_damage": 0, "hp": 9}),
    (
        "T9",
        "Aya",
        "Kappa",
        "Bolt",
        "5 5 | 1 2 | 4 | 3 4",
        {"real_damage": 4, "hp": 0, "incapacitated": True},
    ),
    (
        "T10",
        "Aya",
        "Fallen",
        "Bolt",
        "2 3 | | 1 | 4 4",
        {
            "hit": True,
            "dodge_total": None,
            "real_damage": 0,
            "death_check": {"dice": [4, 4], "target": 7, "survives": True},
        },
    ),
    ("T11", "Aya", "Giant", "Curse", "5 5 | 1 2 | 6", {"real_damage": 10, "max_hp": 20, "hp": 20}),
    ("T12", "Aya", "Young Giant", "Curse", "5 5 | 1 2 | 6", {"max_hp": 20, "hp": 12}),
    ("T13", "Aya", "Wisp", "Curse", "5 5 | 1 2 | 4", {"max_hp": 0, "dead": True}),
]


@pytest.mark.parametrize(
    ("vector", "attacker", "target", "weapon", "faces", "expected"),
    VECTORS,
    ids=[f"{v[0]}:{v[2]}:{v[4]}" for v in VECTORS],
)
def test_vector_through_cli(capsys, vector, attacker, target, weapon, faces, expected):
    doc = run_json(capsys, "attack", MAP, attacker, target, "--attack", weapon, "--faces", faces)
    assert doc["legal"], doc["reason"]
    for key, value in expected.items():
        assert doc["outcome"][key] == value, key


def test_reach_and_errors(capsys):
    doc = run_json(capsys, "attack", MAP, "Aya", "Hidden", "--attack", "Bolt")
    assert doc["legal"] is False and "line of sight" in doc["reason"] and "V(6,0)" in doc["reason"]
    doc = run_json(capsys, "attack", MAP, "Aya", "Oni", "--attack", "Fist")
    assert doc["legal"] is False and "not Close" in doc["reason"]
    doc = run_json(capsys, "attack", MAP, "Aya", "Tomoe")
    assert doc["legal"] is False and "ally" in doc["reason"]
    assert main(["attack", MAP, "Aya", "Oni", "--attack", "Axe"]) == 2
    assert "no weapon 'Axe'" in capsys.readouterr().err
    assert main(["attack", MAP, "Aya", "Oni", "--attack", "Bolt", "--faces", "6 6 | 2 3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "damage pool" in err


def test_odds_exact(capsys):
    doc = run_json(capsys, "odds", MAP, "Aya", "Kappa", "--attack", "Bolt")
    dist = fc.damage_distribution(4, 0, bonus=0, armour=0)
    assert doc["exact"]["distribution"] == {str(k): str(v) for k, v in dist.items()}
    assert doc["exact"]["kill"] == str(sum(p for d, p in dist.items() if d >= 4))
