"""docs/rulesets.md runs: its walkthrough's file loads, its Python session prints what it shows,
its steps add up to the whole file, its error line is the one a typo gives, and every file of
examples/rulesets/ loads."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from game.play.ruleset_file import read_ruleset_file
from game.rules.custom import RulesetFileError, load_ruleset

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "rulesets.md"
FENCE = re.compile(r"^```(\S*)\s*$")


def blocks(text: str) -> list[tuple[str, str, str]]:
    """Every fenced block as (language, its text, the marker comment just above it or "")."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        marker = lines[i - 1].strip() if i and lines[i - 1].startswith("<!--") else ""
        end = i + 1
        while lines[end].strip() != "```":
            end += 1
        out.append((opening.group(1), "\n".join(lines[i + 1:end]) + "\n", marker))
        i = end + 1
    return out


def marked(name: str) -> str:
    found = [body for _, body, marker in blocks(DOC.read_text(encoding="utf-8")) if name in marker]
    assert len(found) == 1, name
    return found[0]


def test_the_walkthrough_session_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "raid.toml").write_text(marked("example: raid.toml"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    session = marked("example: session")
    test = doctest.DocTestParser().get_doctest(session, {}, "rulesets.md session", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 10


def test_the_steps_of_the_walkthrough_make_the_whole_file() -> None:
    whole = marked("example: raid.toml")
    steps = []
    for language, body, marker in blocks(DOC.read_text(encoding="utf-8")):
        if marker:
            break
        if language == "toml":
            steps.append(body)
    squeeze = lambda text: [line for line in text.splitlines() if line.strip()]  # noqa: E731
    assert squeeze("".join(steps)) == squeeze(whole)


def test_the_error_line_shown_is_the_one_a_typo_gives() -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = next(body for language, body, _ in blocks(text) if language == "text" and "sheild" in body)
    typo = marked("example: raid.toml").replace('symbols = ["shield"]', 'symbols = ["sheild"]')
    with pytest.raises(RulesetFileError) as info:
        load_ruleset(typo, "raid.toml")
    assert str(info.value) == shown.strip()


@pytest.mark.parametrize("path", sorted((REPO / "examples" / "rulesets").glob("*.toml")), ids=lambda p: p.name)
def test_every_example_file_loads(path: Path) -> None:
    rules = read_ruleset_file(path)
    assert rules.name and rules.spec.attacks and rules.spec.resolutions


def test_the_doc_has_no_commands_that_cannot_run_yet() -> None:
    assert "$ sightline" not in DOC.read_text(encoding="utf-8")
