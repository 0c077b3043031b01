"""``game.cli``: one-line argument errors, negative squares, misspelt commands (through main)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main

REPO = Path(__file__).resolve().parent.parent
DEMO = str(REPO / "maps" / "demo.tmx")
ROOM = str(Path(__file__).resolve().parent / "data" / "los" / "room.tmx")


def one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``sightline argv``; it must fail with exit 2, nothing on stdout, one line on stderr."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "start", "words"),
    [
        (["los", ROOM], "sightline los: error: ", "X,Y"),
        (["render", ROOM], "sightline render: error: ", "required: -o/--output"),
        (["los", ROOM, "0,0", "1,1", "2,2"], "sightline los: error: ", "unrecognized arguments: 2,2"),
        (["los", ROOM, "0,0", "--bogus"], "sightline los: error: ", "--bogus"),
        (["los", ROOM, "0,0", "1,1", "-1,2"], "sightline los: error: ",
         "unrecognized arguments: -1,2 ("),
        (["attack", DEMO, "Ember", "Cinder", "--seed", "abc"], "sightline attack: error: ",
         "argument --seed: invalid int value: 'abc'"),
        (["attack", DEMO, "Ember", "Cinder", "--block-stat", "foo"], "sightline attack: error: ",
         "invalid choice: 'foo'"),
        (["check", ROOM, "--format", "xml"], "sightline check: error: ", "'xml'"),
    ],
)
def test_argparse_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], start: str, words: str
) -> None:
    line = one_error_line(capsys, argv)
    assert line.startswith(start) and words in line
    assert line.endswith(f"(see '{start.split(':')[0]} --help')")


def test_help_still_prints_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los", "--help"]) == 0
    assert "X,Y" in capsys.readouterr().out
    assert main(["--help"]) == 0
    assert "COMMAND" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["los", ROOM, "-1,2"], "square (-1,2) is outside the 5x5 board"),
        (["los", ROOM, "3,3", "-1,2"], "square (-1,2) is outside the 5x5 board"),
        (["los", ROOM, "0,-2"], "square (0,-2) is outside the 5x5 board"),
        (["los", ROOM, "-3,-2", "--json"], "square (-3,-2) is outside the 5x5 board"),
        (["render", ROOM, "-o", "x.png", "--from", "-1,2"], "--from (-1,2) is outside the 5x5 board"),
        (["render", ROOM, "-o", "x.png", "--from", "0,0", "--to", "-1,-1"],
         "--to (-1,-1) is outside the 5x5 board"),
    ],
)
def test_negative_squares_reach_the_square_check(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    line = one_error_line(capsys, argv)
    assert line.startswith(f"sightline {argv[0]}: ") and words in line


def test_a_dash_word_that_is_not_a_square_is_still_an_option_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = one_error_line(capsys, ["los", ROOM, "0,0", "-5,"])
    assert line.startswith("sightline los: error: ") and "-5," in line


@pytest.mark.parametrize(
    ("word", "words"),
    [
        ("chek", "unknown command 'chek' (did you mean check?"),
        ("rendr", "unknown command 'rendr' (did you mean render?"),
        ("nosuchcommand", "unknown command 'nosuchcommand'"),
    ],
)
def test_misspelt_command(capsys: pytest.CaptureFixture[str], word: str, words: str) -> None:
    line = one_error_line(capsys, [word, "maps/"])
    assert line.startswith("sightline: ") and words in line
    assert "no such map" not in line and "unrecognized" not in line


def test_unknown_command_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    line = one_error_line(capsys, ["zzzzzz"])
    assert "check" in line and "render" in line


@pytest.mark.parametrize("word", ["missing.tmx", "some/folder/x", "Map.TMJ", "board.json"])
def test_a_word_that_looks_like_a_map_still_means_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, word: str
) -> None:
    line = one_error_line(capsys, [str(word)])
    assert line.startswith("sightline play: ") and "no such map" in line


def test_an_existing_file_without_a_map_suffix_means_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("board").write_text("not a map")
    line = one_error_line(capsys, ["board", "--frames", "0"])
    assert line.startswith("sightline play: ") and "--frames" in line
