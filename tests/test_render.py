"""``sightline render`` and the headless renderer: real maps, real pygame, PNGs read back."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.core.board import Board, Figure
from game.core.errors import UsageError
from game.core.los import line_of_sight
from game.ui import theme
from game.ui.painter import Overlay
from game.ui.render import LEGEND_MIN_WIDTH, image_size, margin, render_png, render_surface

DATA = Path(__file__).resolve().parent / "data" / "render"
PLAIN = DATA / "plain.tmx"  # 6x4, wall V(3,0)-V(3,1), closed door V(3,2), Ann (0,1) red, Gob (5,1)


def load(path: Path) -> pygame.Surface:
    return pygame.image.load(str(path))


def board_pixel(scale: int, gx: float, gy: float, left: int = 0) -> tuple[int, int]:
    """A grid point's pixel in a rendered PNG whose board starts ``left`` px from the edge."""
    m = margin(scale)
    return left + m + round(gx * scale), m + round(gy * scale)


def test_render_writes_a_png_of_the_board_size_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["render", str(PLAIN), "-o", str(out), "--scale", "20", "--no-legend"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    image = load(out)
    assert image.get_size() == image_size(6, 4, 20)
    assert image.get_at(board_pixel(20, 3, 0.5))[:3] == theme.WALL
    assert image.get_at(board_pixel(20, 3, 2.5))[:3] == theme.DOOR_CLOSED
    assert [p.name for p in tmp_path.iterdir()] == ["board.png"]  # no temporary file left behind
    assert out.stat().st_mode & 0o044  # readable by others as a normal file, not mkstemp's 0600


def test_render_draws_the_ray_and_explains_it_in_the_legend(tmp_path: Path) -> None:
    out = tmp_path / "ray.png"
    assert main(["render", str(PLAIN), "-o", str(out), "--from", "0,1", "--to", "5,1"]) == 0
    image = load(out)
    width, board_h = image_size(6, 4, 48)
    assert image.get_width() == max(width, LEGEND_MIN_WIDTH) and image.get_height() > board_h
    left = (image.get_width() - width) // 2  # the board is centred above the wider legend
    assert image.get_at(board_pixel(48, 1.5, 1.5, left))[:3] == theme.RAY_CLEAR
    assert image.get_at(board_pixel(48, 4.5, 1.5, left))[:3] == theme.RAY_BLOCKED  # past the wall
    assert image.get_at((5, board_h + 5))[:3] == theme.LEGEND_BACKGROUND


def test_render_fov_shades_what_the_figure_cannot_see(tmp_path: Path) -> None:
    plain, shaded = tmp_path / "plain.png", tmp_path / "fov.png"
    assert main(["render", str(PLAIN), "-o", str(plain), "--no-legend"]) == 0
    assert main(["render", str(PLAIN), "-o", str(shaded), "--from", "0,1", "--fov", "--no-legend"]) == 0
    a, b = load(plain), load(shaded)
    hidden = board_pixel(48, 4.5, 0.5)  # behind the wall
    seen = board_pixel(48, 1.5, 0.5)
    assert sum(b.get_at(hidden)[:3]) < sum(a.get_at(hidden)[:3]) - 150
    assert b.get_at(seen) == a.get_at(seen)


def test_render_draws_the_map_tiles(tmp_path: Path) -> None:
    out = tmp_path / "tiles.png"
    assert main(["render", str(DATA / "tiles.tmx"), "-o", str(out), "--scale", "40", "--no-legend"]) == 0
    image = load(out)
    left = image.get_at(board_pixel(40, 0.2, 0.3))
    right = image.get_at(board_pixel(40, 0.8, 0.3))
    assert left.r > 150 > left.b and right.b > 150 > right.r  # tile 1: red | blue
    flipped = image.get_at(board_pixel(40, 2.2, 0.3))  # tile 2 flipped: yellow | green
    assert flipped.r > 150 and flipped.g > 150 and flipped.b < 120
    assert image.get_at(board_pixel(40, 2.5, 1.5))[:3] == theme.VOID  # empty in every layer


def test_a_tileset_that_is_not_an_image_falls_back_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "broken.png"
    assert main(["render", str(DATA / "broken-image.tmx"), "-o", str(out), "--scale", "20", "--no-legend"]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "not-an-image.png" in err
    assert load(out).get_at(board_pixel(20, 0.5, 0.5))[:3] == theme.FLOOR_LIGHT


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--from", "9,9"], "outside the 6x4 board"),
        (["--to", "1,1"], "--to needs --from"),
        (["--fov"], "--fov needs --from"),
        (["--from", "one"], "not a square"),
        (["--scale", "500"], "--scale must be between"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], words: str
) -> None:
    out = tmp_path / "x.png"
    assert main(["render", str(PLAIN), "-o", str(out), *extra]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not out.exists()


def test_unreadable_map_and_unwritable_output_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(tmp_path / "missing.tmx"), "-o", str(tmp_path / "x.png")]) == 2
    assert main(["render", str(PLAIN), "-o", str(tmp_path / "no" / "x.png")]) == 2
    assert main(["render", str(PLAIN), "-o", str(tmp_path / "x.jpg")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("sightline render:") for line in lines)


def test_render_png_returns_warnings_and_render_surface_checks_the_size(tmp_path: Path) -> None:
    board = Board.from_ascii(["....."], walls=["V(2,0)"])
    board.place_figure(Figure(1, "Ann", "red", (0, 0)))
    ray = line_of_sight(board, (0, 0), (4, 0), "red")
    assert render_png(board, None, tmp_path / "a.png", scale=10, overlay=Overlay(ray=ray)) == []
    assert load(tmp_path / "a.png").get_size() == image_size(5, 1, 10)
    with_legend = render_surface(board, scale=10, legend=["title", "a long explanation " * 30], key=True)
    assert with_legend.get_width() == LEGEND_MIN_WIDTH
    assert with_legend.get_height() > image_size(5, 1, 10)[1] + 3 * 18
    with pytest.raises(UsageError, match="too big"):
        render_surface(Board(2000, 2000), scale=48)


def test_every_loadable_corpus_map_renders(corpus_dir: Path) -> None:
    """The real Tiled maps of ../shared/corpus: whatever loads must draw (art or vector fallback)."""
    from game.core.errors import MapError
    from game.tiled import load_map

    drawn = 0
    for path in sorted(corpus_dir.rglob("*.tmx")):
        try:
            loaded = load_map(path)
        except MapError:
            continue
        board = loaded.board
        surface = render_surface(board, loaded.art, scale=8)
        if board.grid.kind == "square":
            assert surface.get_size() == image_size(board.width, board.height, 8)
        else:  # a hex map is drawn in Tiled's pixel layout (tests/test_hex_cli.py checks it)
            assert surface.get_width() >= board.width * 8 // 2 and surface.get_height() >= board.height * 8 // 2
        drawn += 1
    assert drawn >= 10


@pytest.mark.parametrize(
    ("viewer", "message"),
    [
        ("Nobody", "--viewer 'Nobody' is not a side on this map (sides: "),
        ("", "--viewer is empty: name a side (sides: "),
    ],
)
def test_render_refuses_an_unknown_viewer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], viewer: str, message: str
) -> None:
    out = tmp_path / "v.png"
    assert main(["render", str(PLAIN), "-o", str(out), "--from", "0,1", "--fov", "--viewer", viewer]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and not out.exists()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sightline render: {message}")


def test_render_viewer_ignores_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "v.png"
    assert main(["render", str(PLAIN), "-o", str(out), "--from", "0,1", "--to", "5,1",
                 "--viewer", "RED", "--scale", "20"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    assert out.exists()


@pytest.mark.parametrize("where", ["file.txt/x.png", "folder.png", "missing/x.png", "/proc/x.png"])
def test_unwritable_output_is_one_line_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    if where.startswith("/proc") and not Path("/proc/self").is_dir():
        pytest.skip("needs Linux /proc")
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "folder.png").mkdir()
    out = Path(where) if where.startswith("/") else tmp_path / where
    assert main(["render", str(PLAIN), "-o", str(out), "--no-legend"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sightline render: cannot write {out}: ")
    assert "internal error" not in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "folder.png"]
    assert list((tmp_path / "folder.png").iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "umask") or os.name != "posix", reason="POSIX permissions")
def test_rendered_png_has_normal_permissions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = os.umask(0o022)
    try:
        assert main(["render", str(PLAIN), "-o", str(tmp_path / "p.png"), "--no-legend"]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "p.png").stat().st_mode) == 0o644


def test_render_step_highlights_one_crossing_of_a_lessons_ray(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import pygame

    from game.cli import main as cli_main
    from game.ui import theme as ui_theme

    lesson = Path(__file__).resolve().parent.parent / "maps" / "lessons" / "L06.tmx"
    whole, step = tmp_path / "whole.png", tmp_path / "step.png"
    assert cli_main(["render", str(lesson), "--from", "1,1", "--to", "2,2", "-o", str(whole)]) == 0
    assert cli_main(["render", str(lesson), "--step", "1", "-o", str(step)]) == 0  # the lesson's from/to
    a, b = pygame.image.load(str(whole)), pygame.image.load(str(step))
    highlight = [
        (x, y) for x in range(0, b.get_width(), 2) for y in range(0, min(b.get_height(), a.get_height()), 2)
        if tuple(b.get_at((x, y)))[:3] == ui_theme.STEP_HIGHLIGHT and tuple(a.get_at((x, y)))[:3] != ui_theme.STEP_HIGHLIGHT
    ]
    assert highlight  # the step's colour is there only in the stepped picture
    capsys.readouterr()
    assert cli_main(["render", str(lesson), "--step", "9", "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "--step 9: this ray has 1 crossing (1..1)" in err and len(err.strip().splitlines()) == 1
