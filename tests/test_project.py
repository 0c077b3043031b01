"""The project's promises about itself: README commands, CI, the command dispatcher, one writer.

The layering rules (which room may import what) are in ``tests/test_structure.py``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from game.cli import COMMANDS, main

REPO = Path(__file__).resolve().parent.parent
def _readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^python3 -m venv .*$", text, flags=re.M)


def test_readme_has_exactly_two_setup_commands_and_ci_runs_the_test_one() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    install, tests = commands
    assert install.endswith("sightline") and "pip install -e ." in install
    assert "'.[test]'" in tests and tests.endswith("python -m pytest -n auto")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "README.md" in ci and "grep" in ci  # CI runs the README's own line, not a copy


def test_ci_smoke_run_is_unconditional_and_headless() -> None:
    """The window smoke run is a top-level line of .ci/run, not hidden behind an ``if`` that can fail."""
    lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    smoke = [line for line in lines if "sightline play" in line and not line.lstrip().startswith("echo")]
    assert smoke and all(line == line.lstrip() for line in smoke), smoke
    assert "--frames" in smoke[0] and "--screenshot" in smoke[0]
    assert not any(line.startswith(("if ", "elif ")) for line in lines)
    assert "SDL_VIDEODRIVER=dummy" in "\n".join(lines)


def test_no_arguments_means_play_and_a_path_means_play_that_map() -> None:
    from game.cli import _normalise

    assert _normalise([]) == ["play"]
    assert _normalise(["maps/demo.tmx"]) == ["play", "maps/demo.tmx"]
    assert _normalise(["los", "m.tmx", "1,1"])[0] == "los"


def test_unknown_option_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert "los" in COMMANDS
    code = main(["los", "maps/demo.tmx", "1,1", "--no-such-option"])
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "--no-such-option" in err


def test_files_are_written_only_through_game_atomic() -> None:
    """One atomic writer (game/play/atomic.py): no module keeps its own mkstemp / os.replace dance."""
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
            assert rel.as_posix() == "game/play/savestate.py", rel


def test_ci_type_checks_the_package() -> None:
    """``mypy game`` is a top-level line of .ci/run (the configuration is in pyproject.toml)."""
    lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ".venv/bin/mypy game" in lines
    assert "[tool.mypy]" in (REPO / "pyproject.toml").read_text(encoding="utf-8")
