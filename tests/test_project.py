"""The project's promises about itself: README commands, CI, layering, the command dispatcher."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from game.cli import COMMANDS, main

REPO = Path(__file__).resolve().parent.parent
#: every pure module of game/ (DESIGN.md: no pygame, no pytmx, no files, no clock); rules/ is added whole
PURE = [
    "board.py", "los.py", "dice.py", "odds.py", "findings.py", "errors.py", "words.py",
    "history.py", "lint.py", "coverage.py", "mapdiff.py",
]
#: what a pure module may not import: drawing, map files, the clock, the file system
FORBIDDEN_IMPORTS = {
    "pygame", "pygame_gui", "pytmx", "time", "datetime", "os", "pathlib", "io", "tempfile", "shutil",
}


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


def test_ci_smoke_run_is_unconditional_and_headless() -> None:
    """The window smoke run is a top-level line of .ci/run, not hidden behind an ``if`` that can fail."""
    lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    smoke = [line for line in lines if "sightline play" in line and not line.lstrip().startswith("echo")]
    assert smoke and all(line == line.lstrip() for line in smoke), smoke
    assert "--frames" in smoke[0] and "--screenshot" in smoke[0]
    assert not any(line.startswith(("if ", "elif ")) for line in lines)
    assert "SDL_VIDEODRIVER=dummy" in "\n".join(lines)


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
    return [game / name for name in PURE] + sorted((game / "rules").glob("*.py"))


def _open_calls(path: Path) -> list[int]:
    """Lines calling ``open(...)`` or ``something.open(...)`` (``Path.open``, ``io.open``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == "open":
                lines.append(node.lineno)
    return lines


def _unseeded_random(path: Path) -> list[int]:
    """Lines using the ``random`` module's shared, unseeded generator (anything but ``Random``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            if any(alias.name != "Random" for alias in node.names):
                lines.append(node.lineno)
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == "random" and node.attr != "Random"):
            lines.append(node.lineno)
    return lines


def test_every_listed_pure_module_exists() -> None:
    """A renamed or deleted pure module fails here instead of silently leaving the check."""
    missing = [name for name in PURE if not (REPO / "game" / name).is_file()]
    assert not missing, f"PURE names modules that do not exist: {missing}"
    assert len(list((REPO / "game" / "rules").glob("*.py"))) >= 5


@pytest.mark.parametrize("path", _pure_modules(), ids=lambda p: str(p.relative_to(REPO)))
def test_pure_layers_import_no_pygame_pytmx_clock_or_files(path: Path) -> None:
    assert not (_imports(path) & FORBIDDEN_IMPORTS)
    assert not _open_calls(path), f"{path.name} calls open() on lines {_open_calls(path)}"
    assert not _unseeded_random(path), f"{path.name}: unseeded random on lines {_unseeded_random(path)}"


def test_the_purity_scan_sees_what_it_bans(tmp_path: Path) -> None:
    """The scan itself works: each banned import style and an open() call are caught."""
    sample = tmp_path / "impure.py"
    sample.write_text(
        "import os.path\nfrom datetime import date\nimport pygame as pg\n"
        "def f(p):\n    return open(p), p.open()\n"
        "import random\nrandom.shuffle([])\nrng = random.Random(7)\n",
        encoding="utf-8",
    )
    assert _imports(sample) & FORBIDDEN_IMPORTS == {"os", "datetime", "pygame"}
    assert _open_calls(sample) == [5, 5]
    assert _unseeded_random(sample) == [7]


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
