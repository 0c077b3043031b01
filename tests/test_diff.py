"""``sightline diff`` and game.designer.mapdiff: one wall removed → exactly the right squares changed."""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.core.board import Board, Edge
from game.core.profiles import PRESETS as _PRESETS
from game.core.sight import reference
from game.designer.coverage import geometry_board
from game.designer.mapdiff import diff_boards
from game.tiled import load_map

ARCADIA = _PRESETS["arcadia"]

LINT = Path(__file__).resolve().parent / "data" / "lint"


def reference_pairs(board: Board) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """Every unordered pair that sees each other, by the slow reference rule (no figures)."""
    bare = geometry_board(board)
    squares = [s for s in bare.squares() if not bare.is_blocked_terrain(s)]
    return {(a, b) for a, b in combinations(squares, 2) if reference(bare, a, b, "arcadia").clear}


def test_removing_a_wall_changes_the_squares_the_reference_says() -> None:
    old, new = load_map(LINT / "diff_old.tmx").board, load_map(LINT / "diff_new.tmx").board
    assert Edge("V", 2, 1) in old.walls and Edge("V", 2, 1) not in new.walls
    before, after = reference_pairs(old), reference_pairs(new)
    diff = diff_boards(old, new)
    assert diff.pairs_gained == len(after - before) > 0
    assert diff.pairs_lost == len(before - after) == 0
    touched = {s for pair in after ^ before for s in pair}
    assert {c.square for c in diff.changes} == touched
    for change in diff.changes:
        gained = {b if a == change.square else a for a, b in after - before if change.square in (a, b)}
        assert set(change.gained) == gained and change.lost == ()
        assert change.sees_after - change.sees_before == len(gained)
    # the wall split the board into two columns of squares: only pairs across it changed
    for change in diff.changes:
        assert all((g[0] >= 2) != (change.square[0] >= 2) for g in change.gained)
    assert not diff.sizes_differ


def test_adding_the_wall_back_is_the_mirror_image() -> None:
    old, new = load_map(LINT / "diff_old.tmx").board, load_map(LINT / "diff_new.tmx").board
    forward, backward = diff_boards(old, new), diff_boards(new, old)
    assert forward.pairs_gained == backward.pairs_lost
    assert [(c.square, c.gained) for c in forward.changes] == [(c.square, c.lost) for c in backward.changes]


def test_boards_of_different_sizes_compare_the_common_area() -> None:
    old, wide = load_map(LINT / "diff_old.tmx").board, load_map(LINT / "diff_wide.tmx").board
    diff = diff_boards(old, wide)
    assert diff.sizes_differ and (diff.width, diff.height) == (4, 3)
    assert "common 4x3 area only (old 4x3, new 5x3)" in diff.summary()
    same_size = diff_boards(old, load_map(LINT / "diff_new.tmx").board)
    assert [c.as_json() for c in diff.changes] == [c.as_json() for c in same_size.changes]


def test_identical_maps_have_no_changes() -> None:
    board = load_map(LINT / "clean.tmx").board
    diff = diff_boards(board, board)
    assert diff.changes == () and diff.pairs_gained == diff.pairs_lost == 0
    assert not diff.gained.any() and not diff.lost.any()


def test_diff_command_text_json_and_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    old, new = str(LINT / "diff_old.tmx"), str(LINT / "diff_new.tmx")
    assert main(["diff", old, new]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{old} -> {new}: ") and "pairs gained, 0 pairs lost" in out[0]
    assert any(line.startswith("(0,0): sees ") and "gained" in line for line in out[1:])

    png = tmp_path / "changes.png"
    assert main(["diff", old, new, "--json", "-o", str(png)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["pairs_lost"] == 0 and doc["pairs_gained"] > 0 and doc["sizes_differ"] is False
    assert doc["image"] == str(png)
    first = doc["squares"][0]
    assert set(first) == {"square", "sees_before", "sees_after", "gained", "lost"}
    image = pygame.image.load(str(png))
    assert image.get_width() >= 4 * 32
    # square (0,0) gained sight: its pixel centre is tinted green, not red
    r, g, b, *_ = image.get_at((16, 16))
    assert g > r


def test_diff_command_refuses_an_unreadable_map(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["diff", str(LINT / "truncated.tmx"), str(LINT / "clean.tmx")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "truncated.tmx" in err


OLD, NEW = str(LINT / "diff_old.tmx"), str(LINT / "diff_new.tmx")


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("file.txt/x.png", "cannot write {out}: "),
        ("folder.png", "cannot write {out}: "),
        ("missing/x.png", "cannot write {out}: folder {tmp}/missing does not exist"),
        ("/proc/x.png", "cannot write {out}: "),
        ("d.txt", "-o must name a .png file, not "),
    ],
)
def test_diff_output_problems_are_one_line_like_render(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, words: str
) -> None:
    if where.startswith("/proc") and not Path("/proc/self").is_dir():
        pytest.skip("needs Linux /proc")
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "folder.png").mkdir()
    out = Path(where) if where.startswith("/") else tmp_path / where
    for command in (["diff", OLD, NEW, "-o", str(out)], ["render", NEW, "-o", str(out)]):
        assert main(command) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        lines = captured.err.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"sightline {command[0]}: " + words.format(out=out, tmp=tmp_path))
        assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "folder.png"]


def test_diff_summary_has_no_parenthesised_plurals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", OLD, NEW]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "(s)" not in first and re.search(r"\d+ squares changed: \d+ pairs gained, 0 pairs lost", first)
