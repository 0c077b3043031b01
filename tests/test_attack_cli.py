"""``sightline attack`` and ``sightline odds`` on the tiny maps of tests/data/attack/.

arena.tmx (7×5): Mark (red, 2,2: Dusty Blade melee 3, Long Bow ranged 3, Dagger melee 1) and
Ghost (monsters, life 1) share (2,2); Goblin (3,2, life 3, Claws melee 1); Orc (2,1, defence 1,
Club exhausted); Golem (1,2, defence 3); Troll (2,3, defence 2, dazed); Kisha (blue, 4,2, Short Bow
ranged 2); Jaimie (green, 3,3, life 5, wounds 3, defence 2 + bonus 1); Zazu (blue, 5,3, Storm Staff
ranged 3 + attack bonus 1); Skeleton (1,1, killed). wall.tmx / door_*.tmx: Mark (2,2) and Goblin
(3,2) with a wall / closed door / open door on V(3,2). loaded_dice.tmx: attack_die override.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main

MAPS = Path(__file__).resolve().parent / "data" / "attack"
ARENA = str(MAPS / "arena.tmx")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main([*argv, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def attack(capsys: pytest.CaptureFixture[str], attacker: str, target: str, card: str, faces: str,
           path: str = ARENA) -> dict[str, object]:
    return run_json(capsys, "attack", path, attacker, target, "--attack", card, "--faces", faces)


def outcome(doc: dict[str, object]) -> tuple[object, ...]:
    out = doc["outcome"]
    assert isinstance(out, dict)
    return out["hits"], out["saves"], out["damage"], out["killed"]


# --- D vectors through the command line ---------------------------------------------------


@pytest.mark.parametrize(
    ("vector", "attacker", "target", "card", "faces", "expected"),
    [
        ("D1", "Mark", "Orc", "Dusty Blade", "sword sword bow | shield", (2, 1, 1, False)),
        ("D2", "Mark", "Orc", "Long Bow", "sword,sword,bow|shield", (1, 1, 0, False)),
        ("D3", "Mark", "Goblin", "Dusty Blade", "crit bow bow sword", (2, 0, 2, False)),
        ("D4", "Kisha", "Goblin", "Short Bow", "bow crit crit sword", (3, 0, 3, True)),
        ("D5", "Goblin", "Jaimie", "Claws", "sword | shield crit blank blank", (1, 2, 0, False)),
        ("D6", "Mark", "Golem", "Dagger", "crit crit crit bow | blank blank blank", (3, 0, 3, False)),
        ("D7", "Mark", "Golem", "Dusty Blade", "sword sword sword | shield shield crit shield", (3, 4, 0, False)),
        ("D8", "Kisha", "Troll", "Short Bow", "bow bow", (2, 0, 2, False)),
        ("D9", "Mark", "Goblin", "Dusty Blade", "sword bow crit bow", (2, 0, 2, False)),
        ("D11", "Goblin", "Jaimie", "Claws", "crit sword | blank blank blank", (2, 0, 2, True)),
    ],
)
def test_dice_vectors_cli(capsys: pytest.CaptureFixture[str], vector: str, attacker: str, target: str,
                          card: str, faces: str, expected: tuple[object, ...]) -> None:
    doc = attack(capsys, attacker, target, card, faces)
    assert doc["legal"] is True, doc["reason"]
    assert outcome(doc) == expected, vector


def test_d10_pools_cli(capsys: pytest.CaptureFixture[str]) -> None:
    doc = attack(capsys, "Zazu", "Jaimie", "Storm Staff", "bow bow bow bow | shield blank blank")
    assert doc["outcome"]["attack_dice"] == 4 and doc["outcome"]["defence_dice"] == 3  # type: ignore[index]
    assert outcome(doc) == (4, 1, 3, True)


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    doc = attack(capsys, "Mark", "Orc", "Dusty Blade", "crit bow bow sword | crit blank")
    assert {"legal", "reason", "steps", "outcome"} <= set(doc)
    steps = doc["steps"]
    assert isinstance(steps, list)
    assert [s["kind"] for s in steps] == ["roll", "explode", "tally", "roll", "explode", "tally", "compare",
                                          "damage", "status"]
    assert steps[1]["rolls"] == [{"pool": "attack", "die": "attack", "face": "sword",
                                  "reason": "explosion of die 1"}]


# --- C vectors and illegal attacks: legal false, exit 0 -----------------------------------


@pytest.mark.parametrize(
    ("vector", "path", "attacker", "target", "card", "legal", "reason"),
    [
        ("C1", ARENA, "Mark", "Ghost", "Dagger", True, "Ghost is in the same Space."),
        ("C2", ARENA, "Mark", "Goblin", "Dusty Blade", True, "Goblin is Close."),
        ("C3 wall", str(MAPS / "wall.tmx"), "Mark", "Goblin", "Dusty Blade", False,
         "not Close: wall V(3,2) between (2,2) and (3,2)."),
        ("C3 closed door", str(MAPS / "door_closed.tmx"), "Mark", "Goblin", "Dusty Blade", False,
         "not Close: closed door V(3,2) between (2,2) and (3,2)."),
        ("C3 open door", str(MAPS / "door_open.tmx"), "Mark", "Goblin", "Dusty Blade", True, "Goblin is Close."),
        ("C4", ARENA, "Mark", "Jaimie", "Dusty Blade", False,
         "not Close: Jaimie is diagonal to Mark (diagonal Spaces are never Close)."),
        ("C5", ARENA, "Mark", "Kisha", "Dusty Blade", False, "not Close: Kisha is 2 squares away."),
        ("C5 ranged", ARENA, "Mark", "Kisha", "Long Bow", True, "Kisha is in line of sight."),
        ("wall LOS", str(MAPS / "wall.tmx"), "Mark", "Goblin", "Long Bow", False,
         "no line of sight: wall V(3,2) between (2,2) and (3,2)."),
        ("exhausted", ARENA, "Orc", "Mark", "Club", False, "Club is exhausted."),
        ("ally", ARENA, "Kisha", "Zazu", "Short Bow", False, "Zazu is an ally."),
        ("killed", ARENA, "Mark", "Skeleton", "Long Bow", False, "Skeleton is already killed."),
    ],
)
def test_legality_cli(capsys: pytest.CaptureFixture[str], vector: str, path: str, attacker: str, target: str,
                      card: str, legal: bool, reason: str) -> None:
    doc = run_json(capsys, "attack", path, attacker, target, "--attack", card, "--seed", "1")
    assert doc["legal"] is legal, (vector, doc["reason"])
    assert str(doc["reason"]).endswith(reason), (vector, doc["reason"])
    if not legal:
        assert doc["steps"] == [] and doc["outcome"] == {}
    odds = run_json(capsys, "odds", path, attacker, target, "--attack", card)
    assert odds["legal"] is legal and odds["reason"] == doc["reason"]


def test_illegal_text_mode_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["attack", str(MAPS / "wall.tmx"), "Mark", "Goblin"]) == 0
    # no --attack and no card legal on the target: every usable card's reason, grouped
    assert capsys.readouterr().out.splitlines()[-1] == (
        "illegal: No attack is legal: Dusty Blade, Dagger: not Close: wall V(3,2) between (2,2) "
        "and (3,2); Long Bow: no line of sight: wall V(3,2) between (2,2) and (3,2)."
    )


# --- --faces errors: one line, exit 2 -----------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ("crit sword", "--faces: the attack pool needs 2 more faces (3 dice + 1 explosion)"),
        ("sword sword sword", "--faces: the defence pool needs 1 more face (1 die)"),
        ("sword sword sword | shield shield", "--faces: the defence pool has 1 extra face (shield)"),
        ("sword sword axe | shield", "--faces: unknown face 'axe' in the attack pool"),
        ("sword sword sword | blank | crit | blank | blank", "--faces: 5 pools given, but this ruleset rolls 4"),
        ("sword sword shield | blank", "--faces: 'shield' is not a face of the attack die"),
    ],
)
def test_faces_errors(capsys: pytest.CaptureFixture[str], faces: str, message: str) -> None:
    code = main(["attack", ARENA, "Mark", "Orc", "--attack", "Dusty Blade", "--faces", faces])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and message in err, err


def test_seed_and_faces_exclusive_and_unknown_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["attack", ARENA, "Mark", "Orc", "--seed", "1", "--faces", "sword"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["odds", ARENA, "Mark", "Nobody"]) == 2
    assert "no figure named 'Nobody'" in capsys.readouterr().err


# --- seeds: replay, the map file untouched ------------------------------------------------


def test_seeded_attack_replays_and_leaves_the_map(capsys: pytest.CaptureFixture[str]) -> None:
    before = (MAPS / "arena.tmx").read_bytes()
    first = run_json(capsys, "attack", ARENA, "Mark", "Golem", "--attack", "Dusty Blade", "--seed", "42")
    second = run_json(capsys, "attack", ARENA, "Mark", "Golem", "--attack", "Dusty Blade", "--seed", "42")
    assert first == second and first["seed"] == 42
    faces = [r["face"] for s in first["steps"] for r in s["rolls"]]  # type: ignore[attr-defined]
    assert faces == ["bow", "sword", "sword", "crit", "blank", "blank", "blank"]
    assert (MAPS / "arena.tmx").read_bytes() == before
    unseeded = run_json(capsys, "attack", ARENA, "Mark", "Golem", "--attack", "Dusty Blade")
    assert isinstance(unseeded["seed"], int)


def test_figures_by_id_and_comma_targets(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "attack", ARENA, "1", "4", "--attack", "Dusty Blade", "--seed", "3")
    assert doc["legal"] is True and "Orc" in str(doc["reason"])
    doc = run_json(capsys, "attack", ARENA, "Mark", "Orc,Goblin", "--seed", "3")
    assert doc["legal"] is False and "exactly one target (2 given)" in str(doc["reason"])


# --- odds ---------------------------------------------------------------------------------


def test_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "odds", ARENA, "Mark", "Goblin", "--attack", "Dagger")
    dist = doc["distribution"]
    assert isinstance(dist, dict) and list(dist) == ["0", "1", "2", "3"]
    assert abs(sum(dist.values()) - 1) < 1e-9
    assert abs(dist["0"] - 1 / 3) < 1e-12 and abs(dist["1"] - 5 / 9) < 1e-12 and abs(dist["2"] - 5 / 54) < 1e-12
    assert abs(doc["kill"] - 1 / 54) < 1e-12  # type: ignore[operator]
    assert abs(doc["expected"] - (5 / 9 + 10 / 54 + 3 / 54)) < 1e-12  # type: ignore[operator]
    assert doc["exact"]["distribution"]["0"] == "1/3"  # type: ignore[index]


def test_odds_with_map_face_override(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "odds", str(MAPS / "loaded_dice.tmx"), "Mark", "Goblin", "--attack", "Dagger")
    # five swords and a crit: never a miss in melee
    assert doc["distribution"]["0"] == 0  # type: ignore[index]


def test_odds_text_bar_chart(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", ARENA, "Mark", "Goblin", "--attack", "Dagger"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Mark may attack Goblin with Dagger")
    assert lines[1].startswith("  0 wounds   33.3% █")
    assert lines[2].endswith("█" * 40)  # the largest bar is full width
    alone = lines.index("expected 0.796 wounds; kill 1.9%")
    assert lines[alone + 1].startswith("note: 1 melee attack dice vs")  # the odds' note is printed (#15)
    # the Goblin pays back: the whole exchange follows the attack alone
    assert lines[alone + 2] == "The whole exchange, wounds to Mark:"
    assert lines[-2].startswith("expected ") and "Mark wounded" in lines[-2]
    assert lines[-1].startswith("note: Payback: Goblin attacks Mark with")


def test_entry_point_prints_clean_json() -> None:
    """The real command: nothing but the JSON document on stdout (no pygame banner)."""
    proc = subprocess.run(
        [sys.executable, "-m", "game", "odds", ARENA, "Mark", "Orc", "--attack", "Dusty Blade", "--json"],
        capture_output=True, text=True, check=False, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["legal"] is True
