"""The coverage numbers (game.designer.coverage) and ``sightline report`` (HTML + PNG, all local)."""

from __future__ import annotations

import os
import random
import re
import stat
from html.parser import HTMLParser
from itertools import combinations
from pathlib import Path

import numpy as np
import pygame
import pytest

from game.cli import main
from game.core.board import Board, Door, DoorState, Edge, Figure
from game.core.profiles import PRESETS as _PRESETS
from game.core.sight import reference
from game.designer.coverage import coverage, door_effects, door_effects_reference, visibility_table

ARCADIA = _PRESETS["arcadia"]

LINT = Path(__file__).resolve().parent / "data" / "lint"


def random_board(seed: int, width: int = 6, height: int = 5) -> Board:
    rng = random.Random(seed)
    walls = {Edge(rng.choice("VH"), rng.randrange(1, width), rng.randrange(1, height)) for _ in range(8)}
    doors = {}
    for i in range(5):
        edge = Edge(rng.choice("VH"), rng.randrange(1, width), rng.randrange(1, height))
        doors[edge] = Door(edge, rng.choice(list(DoorState)), 50 + i)
    blocked = [(rng.randrange(width), rng.randrange(height)) for _ in range(2)]
    void = [(0, height - 1)]
    return Board(width, height, walls=walls, doors=doors.values(), blocked=blocked, void=void,
                 windows=[Edge("H", 1, 1)], figures=[Figure(1, "A", "red", (2, 2)), Figure(2, "B", "red", (2, 2))])


def test_coverage_counts_match_the_reference_rule() -> None:
    board = random_board(3)
    cov = coverage(board)
    bare = Board(board.width, board.height, walls=board.walls, windows=board.windows,
                 doors=board.doors.values(), blocked=board.blocked, void=board.void)
    standable = [s for s in bare.squares() if not bare.is_blocked_terrain(s)]
    expected = np.zeros((board.height, board.width), dtype=int)
    for a, b in combinations(standable, 2):
        if reference(bare, a, b, "arcadia").clear:
            expected[a[1], a[0]] += 1
            expected[b[1], b[0]] += 1
    assert (cov.seen_by == expected).all()  # figures on (2,2) are ignored: they move
    assert cov.standable.sum() == len(standable)
    ranked = cov.most_exposed(3)
    assert [n for _, n in ranked] == sorted((int(v) for v in expected[cov.standable]), reverse=True)[:3]
    assert cov.most_hidden(1)[0][1] == min(int(v) for v in expected[cov.standable])


@pytest.mark.parametrize("seed", range(12))
def test_door_effects_equal_one_table_per_door(seed: int) -> None:
    board = random_board(seed)
    fast, slow = door_effects(board), door_effects_reference(board)
    assert [e.door for e in fast] == [e.door for e in slow]
    for a, b in zip(fast, slow, strict=True):
        assert a.pairs == b.pairs and a.examples == b.examples
        assert (a.per_square == b.per_square).all()


def test_a_door_between_two_rooms_changes_the_pairs_through_it() -> None:
    # two 1x2 rooms side by side, a wall between them with one door
    board = Board.from_ascii(["..", ".."], walls=["V(1,1)"], doors={"V(1,0)": "closed"})
    (effect,) = door_effects(board)
    assert effect.pairs == 3  # (0,0)-(1,0), (0,0)-(1,1), (1,0)-(0,1); (0,1)-(1,1) stays walled
    assert effect.per_square.tolist() == [[2, 2], [1, 1]]
    table = visibility_table(board)
    # door shut: only (0,0)-(0,1) and (1,0)-(1,1) see each other, each pair listed both ways
    assert table.sum() == 2 * 2 and table[0, 2] and table[1, 3]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href") and value is not None:
                self.links.append(value)


def test_report_writes_a_local_page_with_its_images(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert main(["report", str(LINT / "clean.tmx"), "-o", str(out)]) == 0
    assert "index.html" in capsys.readouterr().out
    page = (out / "index.html").read_text(encoding="utf-8")
    parser = _Links()
    parser.feed(page)
    assert {"board.png", "heatmap.png", "door-01.png"} <= set(parser.links)
    for link in parser.links:
        assert not re.match(r"^[a-z]+:|^//|^/", link), link  # no network, no absolute paths
        assert (out / link).is_file(), link
    assert "http" not in page and "<script" not in page and "<link" not in page
    assert "No findings" in page
    board = pygame.image.load(str(out / "board.png"))
    heat = pygame.image.load(str(out / "heatmap.png"))
    assert heat.get_width() >= board.get_width() and heat.get_height() > board.get_height()  # legend


def test_report_lists_findings_with_thumbnails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "walls"
    assert main(["report", str(LINT / "walls.tmx"), "-o", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    for code in ("wall-duplicate", "wall-overlap", "wall-gap", "wall-off-grid"):
        assert code in page
    assert "(s)" not in page and re.search(r"\d+ errors?, \d+ warnings?\. ", page)
    thumbs = sorted(out.glob("finding-*.png"))
    assert len(thumbs) >= 4
    small = pygame.image.load(str(thumbs[0]))
    full = pygame.image.load(str(out / "board.png"))
    assert small.get_width() <= full.get_width()


def test_report_heat_map_colours_exposed_squares_warmer(tmp_path: Path) -> None:
    from game.commands.report import write_report
    from game.tiled import load_map

    report = write_report(load_map(LINT / "sight.tmx"), tmp_path)
    cov = report.coverage
    assert cov is not None
    (hidden, _), (exposed, _) = cov.most_hidden(1)[0], cov.most_exposed(1)[0]
    heat = pygame.image.load(str(tmp_path / "heatmap.png"))
    cell = heat.get_width() // 6

    def corner_pixel(sq: tuple[int, int]) -> tuple[int, ...]:
        return tuple(heat.get_at((sq[0] * cell + 3, sq[1] * cell + 3)))

    assert corner_pixel(exposed)[0] > corner_pixel(hidden)[0]  # red ramp end vs blue


def test_report_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["report", str(LINT / "truncated.tmx"), "-o", str(tmp_path / "r")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x")
    assert main(["report", str(LINT / "clean.tmx"), "-o", str(not_a_folder)]) == 2
    assert "not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["file.txt/sub", "missing/report", "/proc", "/proc/x"])
def test_report_to_an_unwritable_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    if where.startswith("/proc") and not Path("/proc/self").is_dir():
        pytest.skip("needs Linux /proc")
    (tmp_path / "file.txt").write_text("x")
    out = Path(where) if where.startswith("/") else tmp_path / where
    assert main(["report", str(LINT / "clean.tmx"), "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sightline report: cannot write ")
    assert "internal error" not in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_report_files_have_normal_permissions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = os.umask(0o022)
    try:
        assert main(["report", str(LINT / "clean.tmx"), "-o", str(tmp_path / "r")]) == 0
    finally:
        os.umask(old)
    assert "wrote " in capsys.readouterr().out
    files = sorted((tmp_path / "r").iterdir())
    assert {p.name for p in files} >= {"index.html", "board.png", "heatmap.png"}
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o644}


def test_report_summary_has_no_parenthesised_plurals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(LINT / "clean.tmx"), "-o", str(tmp_path / "r")]) == 0
    line = capsys.readouterr().out.strip()
    assert "(s)" not in line and re.search(r"\d+ images?; \d+ doors?, \d+ findings?\)$", line), line
