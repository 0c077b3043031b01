"""The pure rooms speak the domain: no command-line flag in a string of game/core or game/rules.

The rules raise structured errors (``game/core/errors.py``); the command line
(``game/commands/wording.py``) and the window (``game/ui/attack_panel.py``) phrase them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from game.commands.wording import cli_reason, cli_words
from game.core.errors import (
    AttackNameError,
    FacesError,
    OptionError,
    PlayBlocksError,
    PlayError,
    SightlineError,
)

GAME = Path(__file__).resolve().parent.parent / "game"
FLAG_RE = re.compile(r"--[a-z]")


def flag_strings(root: Path) -> list[str]:
    """``path:line: text`` for every string literal (docstrings included) under ``root`` that
    names a command-line flag."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and FLAG_RE.search(node.value):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}: {node.value[:60]!r}")
    return found


@pytest.mark.parametrize("room", ["core", "rules"])
def test_no_command_line_flags_in_the_pure_rooms(room: str) -> None:
    assert flag_strings(GAME / room) == []


def test_the_scan_finds_a_planted_flag(tmp_path: Path) -> None:
    room = tmp_path / "game"
    room.mkdir()
    (room / "x.py").write_text('def f():\n    """Read --faces."""\n    return f"--play: {1}"\n')
    (room / "y.py").write_text('# a comment naming --faces is no string\nX = "a - b, -- c"\n')
    found = flag_strings(room)
    assert len(found) == 2 and all(line.startswith("game/x.py:") for line in found)


@pytest.mark.parametrize(
    ("error", "rules", "cli"),
    [
        (FacesError("the attack pool needs 1 more face", pool="attack"),
         "the attack pool needs 1 more face", "--faces: the attack pool needs 1 more face"),
        (PlayError("ranged fire"),
         "the play 'ranged fire' is not [TYPE] VALUE [ELEMENT] (e.g. \"ranged 3 fire, siege 2\")",
         "--play: 'ranged fire' is not [TYPE] VALUE [ELEMENT] (e.g. \"ranged 3 fire, siege 2\")"),
        (PlayError("ranged 3 mud", "unknown element 'mud'"),
         "the play 'ranged 3 mud': unknown element 'mud'", "--play: 'ranged 3 mud': unknown element 'mud'"),
        (OptionError("phase", "dance", ("ranged", "block", "assign", "attack")),
         "the phase must be one of ranged, block, assign, attack, not 'dance'",
         "--phase must be one of ranged, block, assign, attack, not 'dance'"),
        (OptionError("block_stat", "luck", ("defence", "evasion")),
         "the block stat must be defence or evasion, not 'luck'",
         "--block-stat must be defence or evasion, not 'luck'"),
        (AttackNameError("Mage Knight", "Dance", ("Attack", "Block"), or_option="phase"),
         "unknown Mage Knight attack 'Dance' (use Attack, Block or name the phase)",
         "unknown Mage Knight attack 'Dance' (use Attack, Block or --phase)"),
        (PlayBlocksError("Orcs", 2, 3), "Orcs has 2 attacks but the play has 3 ';'-separated blocks",
         "Orcs has 2 attacks but --play has 3 ';'-separated blocks"),
    ],
)
def test_each_error_has_fields_the_rules_words_and_the_command_lines(
    error: SightlineError, rules: str, cli: str
) -> None:
    assert str(error) == rules and not FLAG_RE.search(rules)
    assert cli_words(error) == cli


def test_a_refusal_with_a_problem_is_phrased_by_the_command_line() -> None:
    problem = PlayBlocksError("Orcs", 1, 2)
    assert cli_reason("Orcs has 1 attack but the play has 2 ';'-separated blocks.", problem) == \
        "Orcs has 1 attack but --play has 2 ';'-separated blocks."
    assert cli_reason("Goblin is already killed.", None) == "Goblin is already killed."
