"""``sightline compare``'s picture at scale: ``--from`` draws the area that matters (the origin
and every square where the rules disagree, with a margin), the default scale keeps a big board's
picture within 4,096 pixels a side, ``--scale`` sets it, and a bad ``--scale`` is one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pygame
import pytest

from game.cli import main
from game.commands.compare import MAX_SIDE_PX, MIN_VIEW, picture_area, picture_scale
from game.core.board import Board

CELL = 32


def write_board(folder: Path, size: int) -> Path:
    """A ``size`` × ``size`` map with a square pillar of walls at (10..11, 10..11)."""
    walls = [
        f'<object id="{i + 1}" class="wall" x="{x * CELL}" y="{y * CELL}"><polyline points="0,0 {dx * CELL},{dy * CELL}"/></object>'
        for i, (x, y, dx, dy) in enumerate([(10, 10, 2, 0), (10, 12, 2, 0), (10, 10, 0, 2), (12, 10, 0, 2)])
    ]
    path = folder / f"board{size}.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{size}" height="{size}" '
        f'tilewidth="{CELL}" tileheight="{CELL}" infinite="0" nextlayerid="2" nextobjectid="9">\n'
        ' <objectgroup id="1" name="objects">\n  ' + "\n  ".join(walls) + "\n </objectgroup>\n</map>\n",
        encoding="utf-8",
    )
    return path


def compare_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    assert main(["compare", *args, "--rules", "arcadia,corners", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_from_draws_the_area_that_matters(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, out = write_board(tmp_path, 120), tmp_path / "from.png"
    doc = compare_json(capsys, str(path), "--from", "8,8", "-o", str(out))
    assert doc["count"] > 0
    area = doc["png_area"]
    x0, y0 = area["from"]
    x1, y1 = area["to"]
    for item in doc["disagreements"]:  # every disagreeing square is drawn
        bx, by = item["to"]
        assert x0 <= bx <= x1 and y0 <= by <= y1
    assert x0 <= 8 <= x1 and y0 <= 8 <= y1
    assert x1 - x0 + 1 < 120 and y1 - y0 + 1 < 120  # not the whole board
    image = pygame.image.load(str(out))
    assert image.get_width() == max(520, (x1 - x0 + 1) * area["scale"])
    assert area["scale"] == 32


def test_the_default_scale_caps_a_big_picture_and_scale_sets_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, out = write_board(tmp_path, 300), tmp_path / "all.png"
    doc = compare_json(capsys, str(path), "--from", "299,299", "-o", str(out), "--scale", "4")
    assert doc["png_area"]["scale"] == 4
    assert picture_scale((0, 0, 400, 400), None) == MAX_SIDE_PX // 400 == 10
    assert picture_scale((0, 0, 10, 10), None) == 32
    assert picture_scale((0, 0, 400, 400), 7) == 7


def test_the_area_grows_to_a_minimum_and_stays_on_the_board() -> None:
    board = Board(50, 30)
    none = np.zeros((30, 50), dtype=bool)
    assert picture_area(board, (0, 0), none) == (0, 0, MIN_VIEW, MIN_VIEW)
    assert picture_area(board, (49, 29), none) == (50 - MIN_VIEW, 30 - MIN_VIEW, 50, 30)
    x0, y0, x1, y1 = picture_area(board, (25, 15), none)
    assert (x1 - x0, y1 - y0) == (MIN_VIEW, MIN_VIEW)
    differ = none.copy()
    differ[29, 49] = True
    assert picture_area(board, (0, 0), differ) == (0, 0, 50, 30)
    assert picture_area(board, None, differ) == (0, 0, 50, 30)


@pytest.mark.parametrize("scale", ["0", "1", "65", "-3"])
def test_a_bad_scale_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, scale: str) -> None:
    path = write_board(tmp_path, 20)
    capsys.readouterr()
    assert main(["compare", str(path), "--rules", "arcadia,corners", "--scale", scale, "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert "--scale must be 2 to 64 pixels per square" in err and "\n" not in err
