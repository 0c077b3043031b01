"""The house's size rules (docs/architecture.md, "Rules of the house"): small functions, a small
window class, and the games' names only in ``rules/``.

Each rule is a function over a source tree, run on ``game/`` and on a planted tree that breaks it
(so a check that can no longer fail is seen).
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: the longest function a room may hold (lines, decorators excluded); the rest: DEFAULT_LIMIT
LIMITS = {"rules": 80, "tiled": 80}
DEFAULT_LIMIT = 100
#: the window's module stays a window: events, layout and drawing (the logic is the presenter's)
APP_LINES = 900
#: rooms that name no game: their behaviour comes from the registry and the sight facade
NAMELESS_ROOMS = ("core", "designer", "play", "ui", "commands")
#: the games' names (the registry's); "arcadia" is also a sight preset, allowed where presets live
GAME_NAMES = ("arcadia", "mage_knight", "mage-knight", "conquest", "folklore")
PRESET_MODULES = {"core/profiles.py", "core/los.py", "core/sight.py"}


def long_functions(root: Path) -> list[str]:
    """``path:function (N lines)`` for every function over its room's limit under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        limit = LIMITS.get(rel.parts[0], DEFAULT_LIMIT) if len(rel.parts) > 1 else DEFAULT_LIMIT
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found.append(f"{rel}:{node.name} ({length} lines, limit {limit})")
    return found


def game_names(root: Path) -> list[str]:
    """``path:line: name`` for every game's name in code of the rooms that must name none: an
    identifier holding one (``is_arcadia``) or a string that is one (``== "conquest"``); prose
    (docstrings, comments, help sentences naming a preset or a game) aside."""
    found = []
    for room in NAMELESS_ROOMS:
        for path in sorted((root / room).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8")
            docstrings = _docstring_lines(text)
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                if tok.type not in (tokenize.NAME, tokenize.STRING) or tok.start[0] in docstrings:
                    continue
                low = tok.string.lower()
                if tok.type == tokenize.STRING:
                    low = low.strip("'\"rbfu")  # the literal's text
                    hits = [name for name in GAME_NAMES if low == name]
                else:
                    hits = [name for name in GAME_NAMES if name in low]
                if any(not (name == "arcadia" and rel in PRESET_MODULES) for name in hits):
                    found.append(f"{rel}:{tok.start[0]}: {tok.string}")
    return found


def _docstring_lines(text: str) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def test_no_function_is_over_its_rooms_limit() -> None:
    assert long_functions(REPO / "game") == []


def test_the_window_module_stays_small() -> None:
    lines = len((REPO / "game" / "ui" / "app.py").read_text(encoding="utf-8").splitlines())
    assert lines < APP_LINES, f"game/ui/app.py has {lines} lines: move play logic to game/play/presenter.py"


def test_no_game_is_named_outside_rules() -> None:
    assert game_names(REPO / "game") == []


def test_the_checks_fail_on_a_planted_tree(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "ui").mkdir()
    (tmp_path / "core").mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(85))
    (tmp_path / "rules" / "long.py").write_text(f"def resolve():\n{body}\n")
    (tmp_path / "ui" / "ok.py").write_text(f"def draw():\n{body}\n")
    assert long_functions(tmp_path) == ["rules/long.py:resolve (86 lines, limit 80)"]
    (tmp_path / "ui" / "named.py").write_text(
        '"""Mentions conquest in prose, which is fine."""\n'
        "def pick(board):\n    return board.ruleset == 'conquest'  # a game's name in code\n"
        "HELP = 'the stat a Conquest defender blocks with'\n"
    )
    (tmp_path / "core" / "profiles.py").write_text("PRESETS = {'arcadia': 1}\n")
    (tmp_path / "core" / "fov.py").write_text("is_arcadia = True\n")
    assert game_names(tmp_path) == ["core/fov.py:1: is_arcadia", "ui/named.py:3: 'conquest'"]
