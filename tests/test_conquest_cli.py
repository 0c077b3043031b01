"""Conquest through the command line: every vector FB-1 … FB-9 with --faces, reach, odds, errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.rules.conquest import dice as cd

MAP = str(Path(__file__).resolve().parent / "data" / "rules" / "conquest.tmx")


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# (vector, pair tag, faces "attack | block | resolve", expected outcome items)
VECTORS = [
    ("FB-1", "A", "2 3 4 5 | 3 4 6", {"hits": [2, 3], "wounds": 1, "block_stat": "defence"}),
    ("FB-2", "B", "1 2 4 3 5 | 3 4 6", {"dice": [2, 3, 4, 5], "hits": [2, 3], "wounds": 1}),
    ("FB-3", "C", "6 6 5 | 5", {"hits": [5], "wounds": 0}),
    ("FB-4", "D", "1 4 | 2 3", {"hits": [1, 4], "wounds": 1}),
    ("FB-5", "D", "2 5 | 1 5", {"hits": [2, 5], "wounds": 0}),
    ("FB-6", "E", "1 1 3 6 2 | 1 2 2 4", {"hits": [1, 1, 2], "wounds": 1}),
    (
        "FB-7",
        "F",
        "1 2 3 | | 1",
        {"wounds": 3, "wounds_total": 1, "broken": True, "driven_back": True, "slain": False},
    ),
    ("FB-7", "F", "1 2 3 | | 2", {"wounds": 3, "slain": True, "broken": False}),
    (
        "FB-8",
        "G",
        "1 2 3",
        {
            "slain": True,
            "resolve_test": {
                "modified": 0,
                "roll": None,
                "passed": False,
                "automatic_failure": True,
            },
        },
    ),
    (
        "FB-9",
        "H",
        "4 | | 3",
        {
            "wounds": 1,
            "wounds_total": 1,
            "broken": True,
            "resolve_test": {"modified": 3, "roll": 3, "passed": True, "automatic_failure": False},
        },
    ),
]


@pytest.mark.parametrize(
    ("vector", "tag", "faces", "expected"), VECTORS, ids=[f"{v[0]}:{v[2]}" for v in VECTORS]
)
def test_vector_through_cli(capsys, vector, tag, faces, expected):
    doc = run_json(capsys, "attack", MAP, f"Knight {tag}", f"Drone {tag}", "--faces", faces)
    assert doc["legal"], doc["reason"]
    assert doc["outcome"]["attack"] == "Clash"
    for key, value in expected.items():
        assert doc["outcome"][key] == value, key


def test_fb2_dice_reasons(capsys):
    doc = run_json(capsys, "attack", MAP, "Knight B", "Drone B", "--faces", "1 2 4 3 5 | 3 4 6")
    reasons = [r["reason"] for s in doc["steps"] for r in s["rolls"] if r["pool"] == "attack"]
    assert reasons == ["rolled"] * 3 + [
        "reroll of die 1 (Parry)",
        "extra attack from die 1 (Relentless Blows)",
    ]


def test_volley_with_block_stat(capsys):
    doc = run_json(
        capsys,
        "attack",
        MAP,
        "Archer",
        "Marksman",
        "--faces",
        "2 3 4 | 3 4",
        "--block-stat",
        "evasion",
    )
    assert doc["outcome"]["attack"] == "Volley" and doc["outcome"]["hits"] == [2, 3]
    assert doc["outcome"]["wounds"] == 1 and doc["outcome"]["block_stat"] == "evasion"


def test_illegal_answers(capsys):
    doc = run_json(capsys, "attack", MAP, "Archer", "Lurker", "--faces", "1")
    assert doc["legal"] is False and "line of sight" in doc["reason"] and "V(7,5)" in doc["reason"]
    doc = run_json(capsys, "attack", MAP, "Knight A", "Drone B", "--attack", "Clash")
    assert doc["legal"] is False and "not Close" in doc["reason"]
    doc = run_json(capsys, "attack", MAP, "Knight A", "Archer")
    assert doc["legal"] is False and "ally" in doc["reason"]


def test_too_few_faces_one_line(capsys):
    assert main(["attack", MAP, "Knight A", "Drone A", "--faces", "1 2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "attack pool" in err


def test_odds_exact(capsys):
    doc = run_json(capsys, "odds", MAP, "Archer", "Marksman")
    dist = cd.attack_wounds_distribution(3, 2, 2)
    assert doc["distribution"] == {str(k): float(v) for k, v in dist.items()}
    kill = sum(p * cd.slain_chance(w, 2, 2) for w, p in dist.items() if w)
    assert doc["exact"]["kill"] == str(kill)
    assert Fraction(doc["exact"]["expected"]) == sum(w * p for w, p in dist.items())
