"""The project's promises about itself: README commands, CI, layering, the command dispatcher."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from game.cli import COMMANDS, main

REPO = Path(__file__).resolve().parent.parent
PURE = ["board.py", "los.py", "dice.py", "findings.py", "errors.py", "history.py", "words.py"]


def _readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^python3 -m venv .*$", text, flags=re.M)


def test_readme_has_exactly_two_setup_commands_and_ci_runs_the_test_one() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    install, tests = commands
    assert install.endswith("sightline") and "pip install -e ." in install
    assert "'.[test]'" in tests and tests.endswith("python -m pytest")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "README.md" in ci and "grep" in ci  # CI runs the README's own line, not a copy


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def _pure_modules() -> list[Path]:
    game = REPO / "game"
    paths = [game / name for name in PURE if (game / name).exists()]
    paths += sorted((game / "rules").glob("*.py"))
    return paths


@pytest.mark.parametrize("path", _pure_modules(), ids=lambda p: str(p.relative_to(REPO)))
def test_pure_layers_import_no_pygame_pytmx_or_clock(path: Path) -> None:
    forbidden = {"pygame", "pygame_gui", "pytmx", "time"}
    assert not (_imports(path) & forbidden)


def test_only_tiled_modules_import_pytmx_and_only_ui_imports_pygame() -> None:
    for path in (REPO / "game").rglob("*.py"):
        imports = _imports(path)
        rel = path.relative_to(REPO / "game")
        if "pytmx" in imports:
            assert rel.name.startswith(("tiled", "tmx")), rel
        if imports & {"pygame", "pygame_gui"}:
            assert rel.parts[0] == "ui", rel


def test_no_arguments_means_play_and_a_path_means_play_that_map() -> None:
    from game.cli import _normalise

    assert _normalise([]) == ["play"]
    assert _normalise(["maps/demo.tmx"]) == ["play", "maps/demo.tmx"]
    assert _normalise(["los", "m.tmx", "1,1"])[0] == "los"


def test_unknown_option_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["los", "--no-such-option"]) if "los" in COMMANDS else 2
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_files_are_written_only_through_game_atomic() -> None:
    """One atomic writer (game/atomic.py): no module keeps its own mkstemp / os.replace dance."""
    for path in (REPO / "game").rglob("*.py"):
        if path.name == "atomic.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            f"{node.func.value.id}.{node.func.attr}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
        }
        rel = path.relative_to(REPO)
        assert not calls & {"tempfile.mkstemp", "tempfile.NamedTemporaryFile"}, rel
        if "os.replace" in calls:  # only renaming an unreadable save aside is allowed
            assert rel.as_posix() == "game/savestate.py", rel
