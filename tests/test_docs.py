"""The documentation's examples run: every ``$ sightline ...`` console block prints what it shows.

Each ```` ```console ```` block of README.md, maps/README.md and docs/*.md is a list of commands
(lines starting ``$ sightline ``), each followed by the lines it prints (stdout, then stderr). A
line ``...`` stands for any run of lines (none included). The commands run through
``game.cli.main`` from a scratch folder that links every top-level entry of the repository, so
relative paths (``maps/demo.tmx``) resolve as from the repo root while files an example writes
(``-o changes.png``) land in the scratch folder. Blocks not meant to run are fenced ```` ```sh ````
or ```` ``` ```` and must not contain a ``$ sightline`` line with output to check.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.cli import main

REPO = Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md", REPO / "maps" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)\s*$")
PROMPT = "$ "
ELLIPSIS = "..."


@dataclass(frozen=True)
class Example:
    """One ``$ sightline ...`` line of a console block and the lines shown after it."""

    doc: Path
    line: int
    command: str
    expected: tuple[str, ...]

    @property
    def label(self) -> str:
        """``docs/x.md:12`` for test ids and failure messages."""
        return f"{self.doc.relative_to(REPO).as_posix()}:{self.line}"


def fenced_blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """Every fenced block as (language, line number of its first content line, its lines).

    >>> fenced_blocks("a\\n```console\\n$ sightline x\\nout\\n```\\n```\\nplain\\n```\\n")
    [('console', 3, ['$ sightline x', 'out']), ('', 7, ['plain'])]
    """
    blocks: list[tuple[str, int, list[str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        start = i + 1
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        blocks.append((opening.group(1), start + 1, lines[start:end]))
        i = end + 1
    return blocks


def examples(doc: Path) -> list[Example]:
    """The commands of the console blocks of one document, each with its expected lines."""
    found: list[Example] = []
    for language, first, lines in fenced_blocks(doc.read_text(encoding="utf-8")):
        if language != "console":
            continue
        assert lines and lines[0].startswith(PROMPT), f"{doc.name}:{first}: a console block starts with $"
        for offset, line in enumerate(lines):
            if line.startswith(PROMPT):
                found.append(Example(doc, first + offset, line[len(PROMPT):], ()))
            else:
                last = found[-1]
                found[-1] = Example(last.doc, last.line, last.command, (*last.expected, line))
    return found


def lines_match(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` matches ``expected``, where a line ``...`` matches any run of lines.

    Trailing spaces are ignored on both sides; ``...`` may be indented like the lines it stands for.

    >>> lines_match(["a", "...", "z"], ["a", "b", "c", "z"]), lines_match(["a", "..."], ["a"])
    (True, True)
    >>> lines_match(["a", "...", "z"], ["a", "b"]), lines_match(["a"], ["a", "b"])
    (False, False)
    """
    want = [line.rstrip() for line in expected]
    have = [line.rstrip() for line in actual]
    # matched[i][j]: want[i:] matches have[j:]
    matched = [[False] * (len(have) + 1) for _ in range(len(want) + 1)]
    matched[len(want)][len(have)] = True
    for i in range(len(want) - 1, -1, -1):
        for j in range(len(have), -1, -1):
            if want[i].strip() == ELLIPSIS:
                matched[i][j] = matched[i + 1][j] or (j < len(have) and matched[i][j + 1])
            else:
                matched[i][j] = j < len(have) and want[i] == have[j] and matched[i + 1][j + 1]
    return matched[0][0]


ALL_EXAMPLES = [example for doc in DOCS for example in examples(doc)]


@pytest.fixture
def repo_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch working folder whose entries link to the repository root's."""
    for entry in REPO.iterdir():
        if not entry.name.startswith("."):
            (tmp_path / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("example", ALL_EXAMPLES, ids=lambda e: e.label)
def test_console_example_prints_what_the_doc_shows(
    example: Example, repo_view: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shlex.split(example.command)
    assert words[0] == "sightline", f"{example.label}: only sightline commands run here; fence it as sh"
    assert words[1:2] not in (["play"], ["lessons"]), f"{example.label}: the window does not run here"
    main(words[1:])
    captured = capsys.readouterr()
    actual = (captured.out + captured.err).splitlines()
    shown = lines_match(list(example.expected), actual)
    assert shown, f"{example.label}: `{example.command}` printed:\n" + "\n".join(actual)


def test_the_docs_have_console_examples_to_run() -> None:
    """The collection above found the examples (a broken parser must not pass by running none)."""
    docs = {example.doc.name for example in ALL_EXAMPLES}
    assert len(ALL_EXAMPLES) >= 5 and {"README.md", "designers.md"} <= docs


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_shown_sightline_output_is_in_a_console_block(doc: Path) -> None:
    """A ``$ sightline`` line followed by output outside a console block would never be checked."""
    for language, first, lines in fenced_blocks(doc.read_text(encoding="utf-8")):
        if language == "console":
            continue
        for offset, line in enumerate(lines[:-1]):
            if line.startswith(PROMPT + "sightline"):
                shows_output = not lines[offset + 1].startswith(PROMPT)
                assert not shows_output, f"{doc.name}:{first + offset}: fence this block as console"


def test_docs_quote_no_benchmark_figures_and_link_to_the_readme_table() -> None:
    """The README's table is the one source of measured speed; a doc naming a benchmark links it."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert re.search(r"^### Speed$", readme, flags=re.M), "README.md lost its Speed table heading"
    linked = 0
    for doc in sorted((REPO / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        linked += "../README.md#speed" in text
        for time in re.finditer(r"\d[\d.,]*\s(ms|s)\b", text):
            before = text[max(0, time.start() - 25):time.start()]
            assert "target" in before, f"{doc.name}: {time.group()!r} is a measured figure: link the table"
    assert linked >= 4


def test_the_examples_matcher_refuses_wrong_output() -> None:
    """``...`` is not a wildcard for everything: order and the lines around it still count."""
    assert lines_match(["a", "...", "c", "...", "e"], ["a", "b", "c", "d", "e"])
    assert not lines_match(["a", "...", "c"], ["a", "c", "b"])
    assert not lines_match(["x"], [])
    assert lines_match([], [])
