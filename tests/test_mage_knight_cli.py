"""Mage Knight through the command line: every vector MK-1 … MK-19 with ``sightline attack``
(MK-20, player versus player, is a plain function: tests/test_mage_knight.py), odds, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main

MAP = Path(__file__).resolve().parent / "data" / "rules" / "mage_knight.tmx"


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def attack(capsys, hero: str, targets: str, phase: str, play: str) -> dict:
    return run_json(capsys, "attack", str(MAP), hero, targets, "--phase", phase, "--play", play)


# (vector, hero, targets, phase, play, expected outcome items — or "illegal: <words>")
VECTORS = [
    ("MK-1", "Tovak", "Prowlers", "ranged", "ranged 3", {"defeated": ["Prowlers"], "fame": 2}),
    ("MK-2", "Tovak", "Diggers", "ranged", "ranged 5", "illegal: use siege attacks only"),
    ("MK-2", "Tovak", "Diggers", "ranged", "siege 3", {"defeated": ["Diggers"]}),
    ("MK-3", "Tovak", "Guardsmen", "ranged", "siege 7", "illegal: double-fortified"),
    (
        "MK-4",
        "Tovak",
        "Prowlers,Diggers",
        "ranged",
        "siege 6",
        {"armor": 6, "defeated": ["Prowlers", "Diggers"], "fame": 4},
    ),
    ("MK-4", "Tovak", "Prowlers,Diggers", "ranged", "ranged 3, siege 3", "illegal: ranged attacks"),
    (
        "MK-5",
        "Tovak",
        "Fire Golems",
        "attack",
        "3, 3 fire, 1 ice",
        {"effective": 4, "defeated": ["Fire Golems"]},
    ),
    (
        "MK-6",
        "Tovak",
        "Skeletal Warriors,Ice Mages",
        "attack",
        "10 coldfire",
        {"armor": 10, "effective": 10, "defeated": ["Skeletal Warriors", "Ice Mages"]},
    ),
    (
        "MK-6",
        "Tovak",
        "Skeletal Warriors,Ice Mages",
        "attack",
        "10 fire",
        {"effective": 5, "defeated": []},
    ),
    (
        "MK-6",
        "Tovak",
        "Skeletal Warriors,Ice Mages",
        "attack",
        "6 fire, 4 ice",
        {"effective": 5, "defeated": []},
    ),
    ("MK-7", "Tovak", "Ironclads", "attack", "5", {"effective": 2, "defeated": []}),
    ("MK-7", "Tovak", "Ironclads", "attack", "6", {"effective": 3, "defeated": ["Ironclads"]}),
    ("MK-8", "Tovak", "High Dragon", "attack", "9 coldfire", {"effective": 4, "defeated": []}),
    ("MK-9", "Tovak", "Fire Mages", "block", "6 ice", {"block": 6, "blocked": True}),
    (
        "MK-9",
        "Tovak",
        "Fire Mages",
        "block",
        "6, 5 fire",
        {"block": 5, "blocked": False, "damage": 6},
    ),
    ("MK-9", "Tovak", "Fire Mages", "block", "8, 2 ice", {"block": 6, "blocked": True}),
    ("MK-10", "Tovak", "Delphana Masters", "block", "10 ice", {"block": 5, "blocked": True}),
    (
        "MK-10",
        "Tovak",
        "Delphana Masters",
        "block",
        "5 ice, 4 fire",
        {"block": 4, "blocked": False},
    ),
    (
        "MK-10",
        "Tovak",
        "Delphana Masters",
        "block",
        "3 coldfire, 4 ice",
        {"block": 5, "blocked": True},
    ),
    ("MK-11", "Tovak", "Wolf Riders", "block", "5", {"needed": 6, "blocked": False, "damage": 3}),
    ("MK-11", "Tovak", "Wolf Riders", "block", "6", {"needed": 6, "blocked": True}),
    ("MK-12", "Tovak", "Freezers", "block", "6 fire", {"block": 6, "needed": 6, "blocked": True}),
    ("MK-12", "Tovak", "Freezers", "block", "12", {"block": 6, "blocked": True}),
    ("MK-12", "Tovak", "Freezers", "block", "11", {"block": 5, "blocked": False}),
    ("MK-13", "Tovak", "Ironclads", "assign", "", {"hero_wounds": 4, "knocked_out": False}),
    ("MK-13", "Arythea", "Ironclads", "assign", "", {"hero_wounds": 3}),
    ("MK-14", "Tovak", "Cursed Hags", "assign", "", {"hero_wounds": 2, "wounds_discard": 2}),
    ("MK-15", "Tovak", "Medusa", "assign", "", {"hero_wounds": 3, "paralyzed": True}),
    (
        "MK-16",
        "Tovak",
        "Shocktroops",
        "assign",
        "Peasants",
        {"units": {"Peasants": {"wounded": True, "wounds": 1}}, "hero_wounds": 1},
    ),
    (
        "MK-17",
        "Tovak",
        "Fire Mages",
        "assign",
        "Guardian",
        {"units": {"Guardian": {"wounded": True, "wounds": 1}}, "hero_wounds": 0},
    ),
    (
        "MK-17",
        "Tovak",
        "Ember Imp",
        "assign",
        "Guardian",
        {"units": {"Guardian": {"absorbed": True}}, "hero_wounds": 0},
    ),
    ("MK-18", "Norowas", "Ironclads", "assign", "", {"wounds_in_hand": 5, "knocked_out": True}),
    ("MK-19", "Tovak", "Shocktroops", "ranged", "ranged 5", {"armor": 6, "defeated": []}),
    (
        "MK-19",
        "Tovak",
        "Blocked Shocktroops",
        "attack",
        "3",
        {"armor": 3, "defeated": ["Blocked Shocktroops"]},
    ),
    ("MK-19", "Tovak", "Shocktroops", "attack", "5", {"armor": 6, "defeated": []}),
]


@pytest.mark.parametrize(
    ("vector", "hero", "targets", "phase", "play", "expected"),
    VECTORS,
    ids=[f"{v[0]}:{v[2]}:{v[4] or 'all to hero'}" for v in VECTORS],
)
def test_vector_through_cli(capsys, vector, hero, targets, phase, play, expected):
    doc = attack(capsys, hero, targets, phase, play)
    if isinstance(expected, str):
        assert doc["legal"] is False
        assert expected.removeprefix("illegal: ") in doc["reason"].lower()
        return
    assert doc["legal"], doc["reason"]
    for key, value in expected.items():
        assert doc["outcome"][key] == value, key


def test_odds_deterministic(capsys):
    doc = run_json(
        capsys, "odds", str(MAP), "Tovak", "Shocktroops", "--phase", "ranged", "--play", "ranged 6"
    )
    assert doc["distribution"] == {"1": 1.0} and doc["expected"] == 1.0 and doc["kill"] == 1.0
    doc = run_json(
        capsys, "odds", str(MAP), "Tovak", "Ironclads", "--phase", "block", "--play", "3"
    )
    assert doc["distribution"] == {"8": 1.0} and doc["label"] == "damage through"


def test_text_output_shows_the_tally(capsys):
    assert main(["attack", str(MAP), "Tovak", "Fire Golems", "--play", "3, 3 fire, 1 ice"]) == 0
    out = capsys.readouterr().out
    assert "halved once" in out and "defeated" in out


def test_bad_input_is_one_line_exit_2(capsys):
    assert main(["attack", str(MAP), "Tovak", "Prowlers", "--play", "ranged three fire"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--play" in err and "Traceback" not in err
    assert main(["attack", str(MAP), "Tovak", "Prowlers", "--phase", "dance"]) == 2
    assert "--phase" in capsys.readouterr().err
    assert main(["attack", str(MAP), "Tovak", "Prowlers", "--faces", "3"]) == 2
    assert "roll no dice" in capsys.readouterr().err


def test_map_is_not_modified(capsys):
    before = MAP.read_bytes()
    attack(capsys, "Tovak", "Prowlers", "attack", "9")
    assert MAP.read_bytes() == before
