"""The library face (``import game``): its names, its README examples, and a quiet import."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from pathlib import Path

import pytest

import game

REPO = Path(__file__).resolve().parent.parent


def test_every_public_name_resolves_and_is_listed() -> None:
    for name in game.__all__:
        assert getattr(game, name) is not None, name
    assert set(game.__all__) == {"__version__", *game._EXPORTS}
    assert {"load_map", "Board", "line_of_sight", "visible_from", "get_ruleset",
            "attack_odds"} <= set(game.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = game.nothing  # type: ignore[attr-defined]


def test_the_package_is_typed() -> None:
    assert (REPO / "game" / "py.typed").is_file()


def test_the_readme_library_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``>>>`` line of README.md runs from the repository root and prints what it shows, as
    plain ``python -m doctest README.md`` reads it (the file as it is, no patching)."""
    monkeypatch.chdir(REPO)
    text = (REPO / "README.md").read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(REPO / "README.md"), 0)
    assert len(test.examples) >= 8
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0


def _quiet_python(code: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, env=env, check=True)


def test_import_game_prints_nothing_and_loads_no_window_code() -> None:
    out = _quiet_python(
        "import sys, game; game.Board; game.line_of_sight; game.get_ruleset('arcadia');"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui', 'pytmx')))")
    assert out.stdout == "[]\n" and out.stderr == ""


def test_reading_a_map_through_the_library_prints_nothing_and_loads_no_pygame() -> None:
    out = _quiet_python(
        "import sys, game; game.load_map('maps/demo.tmx');"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui', 'pytmx')))")
    assert out.stdout == "[]\n" and out.stderr == ""
