"""A hex map's messages name hexes where a square map's name squares (issue #21: "the same words
as on squares"): the tile layers' findings, the map's size and infinite-map messages, the board
line of ``check --suggest``, the commands' refusals of a cell, the linter's door cells, and the
window's notices and coverage legend. Every test runs on a real hex map and on its square twin
(drawn alike, ``orientation="orthogonal"``), whose words stay as they were."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from game.cli import main
from game.core.errors import MapError
from game.designer.lint import lint
from game.play.presenter import Presenter
from game.play.session import Session
from game.play.status import SELF_SIGHT
from game.play.wording import heat_legend
from game.tiled import load_map

if TYPE_CHECKING:
    from game.ui.app import App

TILES = Path(__file__).resolve().parent / "data" / "tiled" / "tiles.png"
GRIDS = {
    "square": 'orientation="orthogonal"',
    "hex": 'orientation="hexagonal" hexsidelength="16" staggeraxis="y" staggerindex="odd"',
}
#: what one cell and several are called on each grid
WORDS = {"square": ("square", "squares"), "hex": ("hex", "hexes")}
#: gid 1 floor, 2 a tile class nobody reads (water), 3 blocked, 4 unused; gid 9 is in no tileset
TILESET = """ <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="4" columns="4">
  <image source="tiles.png" width="128" height="32"/>
  <tile id="1" class="water"/>
  <tile id="2"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
"""
#: a figure on the cell (0,0) of either grid (its drawn centre is (16,16) on both)
FIGURE = """ <objectgroup id="8" name="Figures">
  <object id="1" name="Rook" class="figure" x="16" y="16"><properties><property name="side" value="red"/></properties><point/></object>
 </objectgroup>
"""

pytestmark = pytest.mark.parametrize("grid", list(GRIDS))


def _layer(lid: int, name: str, rows: list[list[int]], attrs: str = "") -> str:
    body = ",\n".join(",".join(str(v) for v in row) for row in rows)
    return (f' <layer id="{lid}" name="{name}" width="{len(rows[0])}" height="{len(rows)}" {attrs}>\n'
            f'  <data encoding="csv">\n{body}\n</data>\n </layer>\n')


def _chunked(chunks: list[tuple[int, int, list[list[int]]]]) -> str:
    parts = "".join(
        f'   <chunk x="{x}" y="{y}" width="{len(rows[0])}" height="{len(rows)}">\n'
        + ",\n".join(",".join(str(v) for v in row) for row in rows) + "\n   </chunk>\n"
        for x, y, rows in chunks
    )
    return f' <layer id="1" name="Ground" width="16" height="16">\n  <data encoding="csv">\n{parts}  </data>\n </layer>\n'


def _tmx(folder: Path, grid: str, size: tuple[int, int], body: str, attrs: str = 'infinite="0"') -> Path:
    """A map drawn on ``grid`` (square or hex, 32x32-pixel tiles) with ``body`` (layers)."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(TILES, folder / "tiles.png")
    path = folder / "m.tmx"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" tiledversion="1.10.2" {GRIDS[grid]} '
        f'renderorder="right-down" width="{size[0]}" height="{size[1]}" tilewidth="32" tileheight="32" {attrs} '
        f'nextlayerid="9" nextobjectid="9">\n{TILESET}{body}</map>\n', encoding="utf-8")
    return path


def _messages(path: Path) -> list[str]:
    return [f.message for f in load_map(path).findings]


# --- the reader: tile layers, size, infinite maps -------------------------------------------------


def test_the_tile_layers_findings_name_the_grids_cells(tmp_path: Path, grid: str) -> None:
    one, many = WORDS[grid]
    empty = [[0] * 4] * 3
    path = _tmx(tmp_path, grid, (4, 3), "".join([
        _layer(1, "Ground", [[1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]]),
        _layer(2, "Walls", [[0, 0, 0, 1], [0] * 4, [0] * 4]),
        _layer(3, "Odd", empty, 'offsetx="5"'),
        _layer(4, "Junk", [[9, 0, 0, 0], [0] * 4, [0] * 4]),
    ]))
    said = _messages(path)
    for message in (
        f"tile layer 'Walls': its 1 painted {one} is read as blocked {many}, by the layer's name",
        f"tile layer 'Odd' is offset by 5,0 px, not a whole number of {many}; its cells are read 0,0 {many} over",
        f"tile class 'water' is painted on 2 {many} of the board but has no Sightline role; ignored",
        f"tile layer 'Junk' paints 1 {one} with a tile no tileset holds (gid 9); they count as painted "
        f"{many} with no role",
    ):
        assert message in said, (message, said)


def test_a_hidden_layer_and_door_cells_in_the_findings(tmp_path: Path, grid: str) -> None:
    one, many = WORDS[grid]
    hidden = _tmx(tmp_path / "hidden", grid, (4, 3), _layer(1, "Ground", [[1] * 4] * 3, 'visible="0"')
                  + _layer(2, "Top", [[1, 0, 0, 0], [0] * 4, [0] * 4]))
    assert f"tile layer 'Ground' is hidden but counts: without it 11 {many} would be void" in _messages(hidden)
    blocked = _tmx(tmp_path / "blocked", grid, (4, 3), _layer(1, "Ground", [[3] * 4, [3] * 4, [3, 1, 1, 3]])
                   + _layer(2, "Doors", [[0] * 4, [0] * 4, [0, 1, 0, 0]]))
    said = _messages(blocked)
    assert f"tile layer 'Doors': its 1 painted {one} is read as door {many}, by the layer's name" in said
    assert (f"11 of the board's 12 {many} are blocked, impassable or void (blocked 11, door {many} 1); "
            f"a figure can stand on 1 {one}") in said
    sealed = _tmx(tmp_path / "sealed", grid, (5, 1), _layer(1, "Ground", [[1] * 5]) + _layer(2, "Doors", [[0, 1, 0, 0, 0]]))
    found = [f.message for f in lint(load_map(sealed)) if f.code == "region-sealed-by-doors"]
    assert found == [f"1 {one} (0,0) is sealed off while these doors stay shut: door {one} (1,0) (closed)"]


def test_a_door_cell_sealing_a_region_is_named_by_the_grids_neighbours(tmp_path: Path, grid: str) -> None:
    """(2,0) is shut in by rock at (1,0) and (2,1) and a door cell at (1,1): on hexes (odd rows
    pushed right) the door is one of its six neighbours and seals it; on squares it is a diagonal,
    no neighbour, and (2,0) is simply unreachable."""
    path = _tmx(tmp_path, grid, (3, 2), _layer(1, "Ground", [[1, 3, 1], [1, 1, 3]]) + _layer(2, "Doors", [[0, 0, 0], [0, 1, 0]]))
    found = {f.code: f.message for f in lint(load_map(path)) if f.code.startswith("region")}
    if grid == "hex":
        assert found == {"region-sealed-by-doors": "1 hex (2,0) is sealed off while these doors stay shut: door hex (1,1) (closed)"}
    else:
        assert "region-sealed-by-doors" not in found and "(2,0)" in found["region-unreachable"], found


def test_the_maps_size_is_counted_in_the_grids_cells(tmp_path: Path, grid: str, capsys: pytest.CaptureFixture[str]) -> None:
    many = WORDS[grid][1]
    for size, words in (((0, 3), f"the map is 0x3 {many}; it needs at least one"),
                        ((600, 600), f"the map is 600x600 = 360,000 {many}, over the 250,000 limit")):
        path = _tmx(tmp_path / f"{size[0]}", grid, size, "")
        with pytest.raises(MapError, match=words):
            load_map(path)
        assert main(["check", str(path)]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1


def test_an_infinite_maps_painted_part_is_counted_in_the_grids_cells(tmp_path: Path, grid: str) -> None:
    many = WORDS[grid][1]
    small = _tmx(tmp_path / "small", grid, (16, 16), _chunked([(0, 0, [[0, 0, 0], [0, 1, 1], [0, 1, 1]])]),
                 'infinite="1"')
    assert _messages(small) == [f"infinite map: the board is its painted part, 2x2 {many} from Tiled's cell (1,1); "
                                f"{many} are counted from there"]
    huge = _tmx(tmp_path / "huge", grid, (16, 16), _chunked([(0, 0, [[1]]), (600, 600, [[1]])]), 'infinite="1"')
    with pytest.raises(MapError, match=f"the painted part of the infinite map is 601x601 {many}, over the 250,000 limit"):
        load_map(huge)


def test_check_suggest_counts_the_cells_to_stand_on(tmp_path: Path, grid: str, capsys: pytest.CaptureFixture[str]) -> None:
    many = WORDS[grid][1]
    path = _tmx(tmp_path, grid, (4, 3), _layer(1, "Ground", [[1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]]))
    assert main(["check", "--suggest", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"# - the board: 4x3, 10 {many} to stand on, 0 walls, 0 blocked, 0 void, 0 figures, 0 doors" in out, out


# --- the commands' refusals of a cell ---------------------------------------------------------------


def test_los_reach_and_render_refuse_a_cell_in_the_grids_words(tmp_path: Path, grid: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    one = WORDS[grid][0]
    path = str(_tmx(tmp_path, grid, (4, 3), _layer(1, "Ground", [[1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 1, 1]])))
    png = str(tmp_path / "out.png")
    for argv, words in (
        (["los", path, "9,9"], f"sightline los: {one} (9,9) is outside the 4x3 board (x 0..3, y 0..2)"),
        (["los", path, "3,0"], f"sightline los: {one} (3,0) is void (off the board)"),
        (["reach", path, "9,1", "2"], f"sightline reach: {one} (9,1) is outside the 4x3 board (x 0..3, y 0..2)"),
        (["reach", path, "3,0", "2"], f"sightline reach: {one} (3,0) is void (off the board)"),
        (["render", path, "-o", png, "--from", "3,0"], f"sightline render: --from (3,0) is off the board (a void {one})"),
        (["render", path, "-o", png, "--fov"], f"sightline render: --fov needs --from (the {one} whose view to shade)"),
        (["render", path, "-o", png, "--viewer", "red"], f"sightline render: --viewer needs --from (the viewer's {one})"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.strip() == words, err


# --- the window ---------------------------------------------------------------------------------------


def test_the_window_notices_name_the_grids_cells(tmp_path: Path, grid: str) -> None:
    one = WORDS[grid][0]
    path = _tmx(tmp_path, grid, (5, 2), _layer(1, "Ground", [[1] * 5] * 2)
                + _layer(2, "Doors", [[0, 0, 0, 1, 0], [0] * 5]) + FIGURE)
    p = Presenter(Session.open(path, autosave=False), clock=lambda: 0.0)
    p.toggle("ruler")
    assert p.frame().status_line == (f"The ruler measures from the selected figure or the start {one}: click one.", "info")
    p.toggle("ruler")
    p.toggle("reach")
    assert p.frame().status_line == (f"The reach starts from the selected figure or the start {one}: click one.", "info")
    p.toggle("reach")
    p.sight_start_at_cursor()  # no cursor, no hover
    assert p.frame().status_line == (f"Move the cursor onto a {one} first (Ctrl+arrows or the mouse).", "error")
    p.click((3, 0), None, None)
    assert p.frame().status_line == (f"door {one} (3,0): open", "info")
    rook = next(iter(p.board.figures))  # type: ignore[union-attr]
    p.select(rook)
    p.pinned = (0, 0)  # the Rook's own cell, nobody else on it
    alone = f"Blocked: a figure has no line of sight to itself (it can see another figure in its own {one}, never itself)."
    assert p.frame().status_line == (alone, "blocked")
    assert (alone == SELF_SIGHT) is (grid == "square")


def test_a_drag_refused_names_the_grids_cell(tmp_path: Path, grid: str) -> None:
    one = WORDS[grid][0]
    path = _tmx(tmp_path, grid, (5, 2), _layer(1, "Ground", [[1, 1, 3, 1, 0], [1] * 5])
                + _layer(2, "Doors", [[0, 0, 0, 1, 0], [0] * 5]) + FIGURE)
    p = Presenter(Session.open(path, autosave=False), clock=lambda: 0.0)
    rook = next(iter(p.board.figures))  # type: ignore[union-attr]
    for cell, why in (((2, 0), "is blocked terrain"), ((3, 0), f"is a closed door {one}"),
                      ((4, 0), "is off the board (void)")):
        p.begin_drag(rook)
        p.drag_to(cell)
        assert p.frame().status_line == (f"Cannot stand here: {one} ({cell[0]},{cell[1]}) {why}.", "blocked")
        p.drop(cell)
        assert p.frame().status_line[0].startswith(f"Refused: {one} ({cell[0]},{cell[1]}) {why}; Rook returns to (0,0)")


def test_a_saved_door_cell_that_is_gone_is_a_note_in_the_grids_words(tmp_path: Path, grid: str) -> None:
    one = WORDS[grid][0]
    ground = _layer(1, "Ground", [[1] * 5] * 2)
    path = _tmx(tmp_path, grid, (5, 2), ground + _layer(2, "Doors", [[0, 0, 0, 1, 0], [0] * 5]))
    p = Presenter(Session.open(path, fresh=True), clock=lambda: 0.0)
    p.click((3, 0), None, None)  # opened, and saved with the play
    _tmx(tmp_path, grid, (5, 2), ground)  # the door drawn out of the map
    again = Session.open(path)
    assert f"the door {one} (3,0) is no longer on the map" in again.messages


def _window(path: Path) -> App:
    """The real window (dummy display, 1000×650) on a map, one frame drawn."""
    import pygame

    from game.ui.app import App

    pygame.display.init()
    pygame.font.init()
    app = App(Session.open(path, autosave=False, fresh=True), screen=pygame.display.set_mode((1000, 650)),
              watch=False, time_source=lambda: 0.0)
    pygame.event.clear()
    app.frame()
    return app


def _press(app: App, key: int, text: str) -> None:
    """A real key press posted to the window, then one frame."""
    import pygame

    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=text, scancode=0))
    app.frame()


def test_the_coverage_legend_names_the_grids_cells(tmp_path: Path, grid: str) -> None:
    import pygame

    from game.ui.heat import MAX_SQUARES, CoverageOverlay

    one, many = WORDS[grid]
    assert heat_legend(3, (1, 0), 2, one) == \
        f"Coverage: each {one} is seen from 0 (blue) to 3 (red) other {many} · (1,0) is seen from 2 · H hides it"
    assert heat_legend(1, None, None, one) == f"Coverage: each {one} is seen from 0 (blue) to 1 (red) other {one} · H hides it"
    big = load_map(_tmx(tmp_path / "big", grid, (91, 90), _layer(1, "Ground", [[1] * 91] * 90))).board
    assert CoverageOverlay().legend_text(big, None) == (
        f"Coverage heat map: the board has more than {MAX_SQUARES} {many}; sightline report MAP draws it as a picture")
    path = _tmx(tmp_path / "small", grid, (5, 2), _layer(1, "Ground", [[1] * 5] * 2) + FIGURE)
    fresh = CoverageOverlay()
    assert fresh.legend_text(load_map(path).board, None) == f"Coverage heat map: working out how many {many} see each {one}…"
    app = _window(path)
    _press(app, pygame.K_h, "h")
    app.heat.wait(60)
    app.frame()
    assert app.heat.legend.startswith(f"Coverage: each {one} is seen from 0 (blue) to 9 (red) other {many}"), app.heat.legend


def test_export_refuses_a_hex_map_in_one_line(tmp_path: Path, grid: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The VTT exports write square grids: a hex map is refused in one line (it was an internal
    error), a square map's summary keeps its squares."""
    path = _tmx(tmp_path, grid, (4, 3), _layer(1, "Ground", [[1] * 4] * 3))
    for target, out in (("uvtt", tmp_path / "m.dd2vtt"), ("foundry", tmp_path / "m.json")):
        code = main(["export", str(path), "--to", target, str(out)])
        got = capsys.readouterr()
        if grid == "hex":
            assert code == 2 and not out.exists()
            assert got.err.strip() == (
                f"sightline export: {path}: a hex map cannot be exported: Sightline's Universal VTT and Foundry "
                "exports hold square grids only (sightline render MAP -o PNG draws the hex board as a picture)")
        else:
            assert code == 0 and out.exists()
            assert f"wrote {out}" in got.out and ": 4x3 squares, 0 wall edges, 0 doors, 0 window edges" in got.out


def test_the_f1_help_names_the_grids_cells(tmp_path: Path, grid: str) -> None:
    """F1 in the real window on each grid: the card's rows say the map's cells (the table is
    written about squares; a hex map's card says hexes, a square map's is unchanged)."""
    import pygame

    from game.ui.help import help_rows

    one, many = WORDS[grid]
    path = _tmx(tmp_path, grid, (5, 2), _layer(1, "Ground", [[1] * 5] * 2) + FIGURE)
    app = _window(path)
    _press(app, pygame.K_F1, "")
    assert app.help_on and app.help.noun == one
    rows = dict(help_rows(app.help.noun)["Figures and sight"])
    assert rows[f"Hover a {one}"] == f"draw the ray from the selected figure or start {one}, explained"
    assert any(f" {many} " in text or text.endswith(many) for text in (t for g in help_rows(one).values() for _, t in g))
