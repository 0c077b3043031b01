"""The window on hex maps (issue #21): real pygame (SDL dummy driver), real posted events, real
maps read by the real reader — the bundled hex demo, and a flat-top even-stagger map with
squashed hexes exported to .tmj by the real Tiled editor.

What a person does: hover a hex (the Frame's verdict is the sight facade's), drag a figure from
one hex to another (mouse → hex through the grid's own pixel layout, exactly), click a door on a
hex side, press K for the next hex preset, F, M, W, undo, quit and come back (the play state), and
an attack the rules refuse on hexes says so in one line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pygame
import pytest
from support.window import Clock, click, drag, key, move, near, post

from game.core import sight
from game.core.board import DoorState
from game.core.errors import UsageError
from game.core.hexgrid import HexGrid, HexLayout
from game.play.session import Session
from game.rules.registry import forget_ruleset, get_ruleset, register_ruleset
from game.ui import theme
from game.ui.app import App
from game.ui.attack_panel import AttackSection
from game.ui.panel import STATUS_MAX_LINES, StatusSection

REPO = Path(__file__).resolve().parent.parent
TILED = shutil.which("tiled")


def hex_demo(folder: Path, extra_props: str = "") -> Path:
    """The bundled hex demo with its tileset and art, in ``folder`` (its play state goes there)."""
    (folder / "maps").mkdir(exist_ok=True)
    shutil.copytree(REPO / "maps" / "tiles", folder / "maps" / "tiles")
    shutil.copytree(REPO / "assets" / "tiles", folder / "assets" / "tiles")
    target = folder / "maps" / "hex-demo.tmx"
    text = (REPO / "maps" / "hex-demo.tmx").read_text(encoding="utf-8")
    target.write_text(text.replace("<properties>", "<properties>" + extra_props, 1), encoding="utf-8")
    return target


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, screen: pygame.Surface, clock: Clock) -> App:
    window = App(Session.open(hex_demo(tmp_path), fresh=True), screen=screen, time_source=clock, watch=False)
    pygame.event.clear()
    window.frame()
    return window


def at(app: App, cell: tuple[int, int]) -> tuple[int, int]:
    """The screen pixel of a hex's drawn centre."""
    return app.view.square_centre(cell)


def figure(app: App, name: str) -> int:
    assert app.board is not None
    return next(f.id for f in app.board.figures.values() if f.name == name)


def inner_points(app: App, cell: tuple[int, int]) -> list[tuple[int, int]]:
    """Pixels just inside each drawn corner of a hex (a fifth of the way to its centre)."""
    cx, cy = app.view.square_centre(cell)
    return [(round(x + (cx - x) / 5), round(y + (cy - y) / 5)) for x, y in app.view.cell_polygon(cell)]


def test_the_mouse_finds_the_hex_drawn_under_it_and_its_roles_are_painted(app: App) -> None:
    board = app.board
    assert board is not None and board.grid.kind == "hex"
    for cell in board.grid.cells():
        for point in [at(app, cell), *inner_points(app, cell)]:
            assert app.view.square_at(*point) == cell, (cell, point)
    void = next(iter(sorted(board.void)))
    assert near(app.screen.get_at(at(app, void)), theme.VOID, 12)
    floor = (3, 3)
    colour = app.screen.get_at(inner_points(app, floor)[0])
    assert near(colour, theme.FLOOR_LIGHT if sum(floor) % 2 else theme.FLOOR_DARK, 12)


@pytest.mark.parametrize("presses", [0, 1, 2])
def test_hovering_draws_the_facades_verdict_under_each_hex_preset(app: App, clock: Clock, presses: int) -> None:
    board = app.board
    assert board is not None
    click(app, at(app, (1, 0)))  # Archer
    for _ in range(presses):
        key(app, pygame.K_k)
    clock.now += 10  # K's notice expires: the status line says the ray
    move(app, at(app, (1, 2)))  # Goblin: vector H5
    frame = app.last_frame
    assert frame.rule is not None and frame.rule.name in ("hexside", "hex-strict", "gloomhaven")
    assert frame.rule.name == ("hexside", "hex-strict", "gloomhaven")[presses]
    found = sight.line(board, (1, 0), (1, 2), frame.rule, viewer="blue")
    assert frame.ray is not None and frame.ray.clear == found.clear
    assert frame.status_kind == ("clear" if found.clear else "blocked")
    assert frame.status.startswith("Clear" if found.clear else "Blocked")
    line = frame.ray.lines[0]
    a, b = app.view.lattice_point(line.start), app.view.lattice_point(line.end)
    early = app.screen.get_at((round(a[0] + (b[0] - a[0]) * 0.2), round(a[1] + (b[1] - a[1]) * 0.2)))
    late = app.screen.get_at((round(a[0] + (b[0] - a[0]) * 0.6), round(a[1] + (b[1] - a[1]) * 0.6)))
    assert near(early, theme.RAY_CLEAR, 30)  # green up to the first blocker (a third of the way)
    assert near(late, theme.RAY_CLEAR if found.clear else theme.RAY_BLOCKED, 30)  # red past it


def test_dragging_a_figure_from_hex_to_hex_is_one_undoable_move(app: App) -> None:
    board = app.board
    assert board is not None
    archer = figure(app, "Archer")
    drag(app, at(app, (1, 0)), at(app, (3, 1)))
    assert board.figure(archer).square == (3, 1)
    assert "move Archer (1,0) -> (3,1)" in app.session.history.log[-1]  # type: ignore[union-attr]
    drag(app, at(app, (3, 1)), at(app, (5, 1)))  # rubble: refused, it goes back
    assert board.figure(archer).square == (3, 1)
    assert "blocked terrain" in app.last_frame.status
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert board.figure(archer).square == (1, 0)


def test_a_click_on_a_hex_side_opens_and_closes_its_door(app: App, clock: Clock) -> None:
    board = app.board
    assert board is not None
    door = next(edge for edge, d in board.doors.items() if d.state is DoorState.CLOSED)
    a, b = (app.view.lattice_point(p) for p in board.grid.edge_ends(door))
    middle = (round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2))
    assert app.view.nearest_edge(*middle, 5.0) == door
    click(app, middle)
    assert board.doors[door].state is DoorState.OPEN
    cells = board.grid.edge_cells(door)
    click(app, at(app, cells[0]))  # sight from that hex, across the open door
    move(app, at(app, cells[1]))
    assert app.last_frame.ray is not None and app.last_frame.ray.clear
    click(app, middle)
    assert board.doors[door].state is not DoorState.OPEN
    move(app, at(app, cells[0]))
    move(app, at(app, cells[1]))
    assert app.last_frame.ray is not None and not app.last_frame.ray.clear
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert board.doors[door].state is DoorState.OPEN


def test_field_of_view_ruler_and_reach_on_hexes(app: App) -> None:
    board = app.board
    assert board is not None
    click(app, at(app, (9, 5)))  # Scout in the one-hex corridor
    for code in (pygame.K_f, pygame.K_m, pygame.K_w):
        key(app, code)
    move(app, at(app, (12, 5)))
    frame = app.last_frame
    assert frame.field_of_view is not None and frame.rule is not None
    assert (frame.field_of_view == sight.field(board, (9, 5), frame.rule, viewer="blue")).all()
    hidden = next(cell for cell in board.grid.cells()
                  if not frame.field_of_view[cell[1], cell[0]] and not board.is_void(cell)
                  and not board.figures_at(cell) and cell not in (frame.reach or {}))
    assert sum(app.screen.get_at(at(app, hidden))[:3]) < sum(theme.FLOOR_DARK) * 0.6  # shaded
    assert frame.ruler is not None and frame.ruler.text == "3 hex steps"
    assert frame.reach is not None and frame.reach[(9, 5)] == 0


def test_quitting_and_coming_back_restores_the_hex_board(tmp_path: Path, screen: pygame.Surface, clock: Clock) -> None:
    path = hex_demo(tmp_path)
    window = App(Session.open(path, fresh=True), screen=screen, time_source=clock, watch=False)
    window.frame()
    board = window.board
    assert board is not None
    archer = figure(window, "Archer")
    drag(window, at(window, (1, 0)), at(window, (2, 3)))
    door = next(edge for edge, d in board.doors.items() if d.state is DoorState.CLOSED)
    a, b = (window.view.lattice_point(p) for p in board.grid.edge_ends(door))
    click(window, (round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)))
    again = App(Session.open(path), screen=screen, time_source=clock, watch=False)
    again.frame()
    assert again.board is not None and again.board.figure(archer).square == (2, 3)
    assert again.board.doors[door].state is DoorState.OPEN
    assert again.last_frame.banner is None  # nothing was set aside


class _HexRefusingArcadia(type(get_ruleset("arcadia"))):  # type: ignore[misc]
    """Arcadia's rules, refusing hex boards in one line as a ruleset that counts on squares does."""

    def check(self, request):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN201
        if request.board.grid.kind == "hex":
            raise UsageError("these rules count ranges on squares: they do not play on hex maps")
        return super().check(request)


#: the toy game's rules, registered under a name by this module (as a plug-in game would be)
RULESET = _HexRefusingArcadia()


def test_an_attack_the_rules_refuse_on_hexes_is_one_line_in_the_panel(tmp_path: Path, screen: pygame.Surface,
                                                                       clock: Clock) -> None:
    register_ruleset("hexless", __name__)
    try:
        path = hex_demo(tmp_path, '<property name="ruleset" value="hexless"/>')
        text = path.read_text(encoding="utf-8").replace(
            '<property name="side" value="blue"/>',
            '<property name="side" value="blue"/><property name="attacks" value="Short Bow:ranged:2"/>')
        path.write_text(text, encoding="utf-8")
        window = App(Session.open(path, fresh=True), screen=screen, time_source=clock, watch=False)
        window.frame()
        click(window, at(window, (1, 0)))  # Archer
        click(window, at(window, (1, 2)), button=3)  # Goblin targeted
        key(window, pygame.K_r)
        status = window.last_frame.status
        assert status.endswith("they do not play on hex maps") and "\n" not in status
        assert window.running
    finally:
        forget_ruleset("hexless")


# --- a flat-top, even-stagger map with squashed hexes, exported by the real Tiled editor ------


def flat_map(folder: Path) -> tuple[Path, HexGrid, HexLayout]:
    """A 7×5 flat-top (stagger axis x), even-stagger map with squashed 40×24 hexes (side 12):
    a floor tileset image, a wall between (2,2) and its first neighbour, a closed door and two
    figures, drawn on Tiled's pixel corners and centres."""
    grid, layout = HexGrid(7, 5, "x", "even"), HexLayout(40, 24, 12)
    surface = pygame.Surface((2 * layout.tilewidth, layout.tileheight))
    surface.fill((200, 190, 160))
    surface.fill((90, 80, 70), (layout.tilewidth, 0, layout.tilewidth, layout.tileheight))
    pygame.image.save(surface, str(folder / "flat.png"))
    objects = []
    for oid, (kind, a, b) in enumerate((("wall", (2, 2), grid.neighbours((2, 2))[0]),
                                        ("door", (4, 2), grid.neighbours((4, 2))[1])), start=1):
        (x0, y0), (x1, y1) = (grid.point_px(p, layout) for p in grid.edge_ends(grid.edge_between(a, b)))
        objects.append(f'<object id="{oid}" type="{kind}" x="{x0:g}" y="{y0:g}">'
                       f'<polyline points="0,0 {x1 - x0:g},{y1 - y0:g}"/></object>')
    for oid, (name, side, cell) in enumerate((("Fox", "blue", (0, 0)), ("Crow", "red", (6, 4))), start=3):
        x, y = grid.centre_px(cell, layout)
        objects.append(f'<object id="{oid}" name="{name}" type="figure" x="{x:g}" y="{y:g}"><properties>'
                       f'<property name="side" value="{side}"/></properties><point/></object>')
    rows = ",\n".join(",".join("2" if (x, y) == (3, 1) else "1" for x in range(7)) for y in range(5))
    path = folder / "flat.tmx"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="7" height="5"
 tilewidth="40" tileheight="24" infinite="0" hexsidelength="12" staggeraxis="x" staggerindex="even"
 nextlayerid="3" nextobjectid="20">
 <tileset firstgid="1" name="flat" tilewidth="40" tileheight="24" tilecount="2" columns="2">
  <image source="flat.png" width="80" height="24"/>
  <tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="7" height="5"><data encoding="csv">
{rows}
</data></layer>
 <objectgroup id="2" name="things">{"".join(objects)}</objectgroup>
</map>
""", encoding="utf-8")
    return path, grid, layout


@pytest.fixture
def flat(tmp_path: Path, screen: pygame.Surface, clock: Clock) -> App:
    path, _, _ = flat_map(tmp_path)
    if TILED is not None:  # the map as the real Tiled editor writes it
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        subprocess.run([TILED, "--export-map", "json", str(path), str(tmp_path / "flat.tmj")],
                       env=env, check=True, capture_output=True, timeout=120)
        path = tmp_path / "flat.tmj"
    window = App(Session.open(path, fresh=True), screen=screen, time_source=clock, watch=False)
    pygame.event.clear()
    window.frame()
    return window


def test_a_flat_top_even_map_from_real_tiled_is_drawn_picked_and_played(flat: App) -> None:
    board = flat.board
    assert board is not None
    grid = board.grid
    assert isinstance(grid, HexGrid) and (grid.staggeraxis, grid.staggerindex) == ("x", "even")
    for cell in grid.cells():
        for point in [at(flat, cell), *inner_points(flat, cell)]:
            assert flat.view.square_at(*point) == cell, (cell, point)
    fox = figure(flat, "Fox")
    drag(flat, at(flat, (0, 0)), at(flat, (1, 1)))
    assert board.figure(fox).square == (1, 1)
    move(flat, at(flat, (6, 4)))
    found = sight.line(board, (1, 1), (6, 4), flat.last_frame.rule, viewer="blue")
    assert flat.last_frame.ray is not None and flat.last_frame.ray.clear == found.clear
    door = next(iter(board.doors))
    a, b = (flat.view.lattice_point(p) for p in grid.edge_ends(door))
    click(flat, (round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)))
    assert board.doors[door].state is DoorState.OPEN


def test_sightline_play_takes_a_screenshot_of_the_hex_demo(tmp_path: Path) -> None:
    shot = tmp_path / "hex.png"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", "game", "play", str(REPO / "maps" / "hex-demo.tmx"), "--fresh",
                           "--size", "1000x650", "--frames", "2", "--screenshot", str(shot)],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert pygame.image.load(str(shot)).get_size() == (1000, 650)


def test_keys_close_doors_redo_viewer_and_reach_steps_on_hexes(app: App) -> None:
    board = app.board
    assert board is not None
    opened = next(edge for edge, d in board.doors.items() if d.state is DoorState.OPEN)
    key(app, pygame.K_c)
    assert board.doors[opened].state is DoorState.CLOSED
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert board.doors[opened].state is DoorState.OPEN
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert board.doors[opened].state is DoorState.CLOSED
    click(app, at(app, (9, 5)))  # Scout
    key(app, pygame.K_2)  # the reach, two steps
    reach = app.last_frame.reach
    assert reach is not None and max(reach.values()) == 2
    assert all(board.grid.distance((9, 5), cell) <= steps for cell, steps in reach.items())
    key(app, pygame.K_v)
    assert app.presenter.viewpoint.choice != "auto"


# --- coordinate labels (G) on every stagger ----------------------------------------------------


def stagger_map(folder: Path, axis: str, index: str, size: tuple[int, int] = (12, 8),
                tile: tuple[int, int, int] = (40, 24, 12)) -> Path:
    """A hex map of floor with one rubble hex, on the given stagger axis and index, drawn by its
    cells' roles (a tileset without images); squashed 40×24 hexes unless ``tile`` says otherwise."""
    (w, h), (tw, th, side) = size, tile
    rows = ",\n".join(",".join("2" if (x, y) == (3, 1) else "1" for x in range(w)) for y in range(h))
    path = folder / f"stagger-{axis}-{index}.tmx"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{w}" height="{h}"
 tilewidth="{tw}" tileheight="{th}" infinite="0" hexsidelength="{side}" staggeraxis="{axis}" staggerindex="{index}"
 nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" name="roles" tilewidth="{tw}" tileheight="{th}" tilecount="2" columns="0">
  <tile id="0"/><tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="{w}" height="{h}"><data encoding="csv">
{rows}
</data></layer>
</map>
""", encoding="utf-8")
    return path


def label_pixels(window: App) -> set[tuple[int, int]]:
    """The pixels of the board area that the coordinate labels paint: the screen with them on
    against the same screen after G turns them off (and G again: on)."""
    import numpy

    def board_area() -> numpy.ndarray:
        return pygame.surfarray.array3d(window.screen.subsurface(pygame.Rect(window.view.viewport))).copy()

    with_labels = board_area()
    key(window, pygame.K_g)
    assert not window.presenter.coordinates_on
    without = board_area()
    key(window, pygame.K_g)
    x0, y0, _, _ = window.view.viewport
    xs, ys = numpy.nonzero((with_labels != without).any(axis=2))
    return {(int(x) + x0, int(y) + y0) for x, y in zip(xs, ys, strict=True)}


@pytest.mark.parametrize("tile", [(40, 24, 12), (56, 64, 32)], ids=["squashed", "regular"])
@pytest.mark.parametrize(("axis", "index"), [("y", "odd"), ("y", "even"), ("x", "odd"), ("x", "even")])
def test_each_coordinate_label_stands_beside_its_own_rows_and_columns_first_hex(
        tmp_path: Path, screen: pygame.Surface, clock: Clock, axis: str, index: str, tile: tuple[int, int, int]) -> None:
    window = App(Session.open(stagger_map(tmp_path, axis, index, tile=tile), fresh=True), screen=screen,
                 time_source=clock, watch=False)
    pygame.event.clear()
    move(window, (window.screen.get_width() - 5, 5))  # the mouse off the board: no hover card
    board, view = window.board, window.view
    assert board is not None and isinstance(board.grid, HexGrid)
    grid = board.grid
    painted = label_pixels(window)
    assert painted and all(view.square_at(*p) is None for p in painted)  # no label covers a hex
    origin_x, origin_y = view.pixel(0, 0)
    pushed_rows = pushed_columns = 0
    for y in range(board.height):  # a row's label ends just left of the row's own first hex
        left, _, _, _ = view.square_rect((0, y))
        _, cy = view.square_centre((0, y))
        ends = [px for px, py in painted if py == cy and px < left]
        assert ends and left - 6 <= max(ends) < left, (y, left, sorted(ends)[-3:])
        pushed_rows += left > origin_x + 2
    for x in range(board.width):  # a column's label ends just above the column's own first hex
        _, top, _, _ = view.square_rect((x, 0))
        cx, _ = view.square_centre((x, 0))
        ends = [py for px, py in painted if px == cx and py < top]
        assert ends and top - 6 <= max(ends) < top, (x, top, sorted(ends)[-3:])
        pushed_columns += top > origin_y + 2
    # Tiled's pushed rows (pointy-top) or columns (flat-top), and only those, carry their labels along
    lines = board.height if axis == "y" else board.width
    pushed = sum(grid.pushed(i) for i in range(lines))
    assert (pushed_rows, pushed_columns) == ((pushed, 0) if axis == "y" else (0, pushed))


def test_a_label_goes_only_as_far_into_a_notch_as_it_fits(tmp_path: Path, screen: pygame.Surface, clock: Clock) -> None:
    # hexes squashed so flat that a label is taller than the notch beside a pushed row's first hex:
    # the label stops where the notch is still as tall as it, covering no hex
    window = App(Session.open(stagger_map(tmp_path, "y", "odd", (20, 8), (40, 40, 4)), fresh=True), screen=screen,
                 time_source=clock, watch=False)
    pygame.event.clear()
    move(window, (window.screen.get_width() - 5, 5))
    view = window.view
    painted = label_pixels(window)
    assert painted and all(view.square_at(*p) is None for p in painted)
    origin_x, _ = view.pixel(0, 0)
    left, _, _, _ = view.square_rect((0, 1))
    _, cy = view.square_centre((0, 1))
    end = max(px for px, py in painted if py == cy and px < left)
    assert origin_x < end < left - 6  # into the notch, not up to the pushed hex


def runs(values: list[int]) -> list[float]:
    """The middles of the runs of consecutive numbers in ``values``."""
    found: list[list[int]] = []
    for v in sorted(values):
        if found and v == found[-1][-1] + 1:
            found[-1].append(v)
        else:
            found.append([v])
    return [(run[0] + run[-1]) / 2 for run in found]


@pytest.mark.parametrize("axis", ["y", "x"])
def test_labels_over_a_scrolled_board_line_up_with_the_first_hexes_in_view(
        tmp_path: Path, clock: Clock, axis: str) -> None:
    # zoomed in and scrolled so that the first row (pointy-top) or column (flat-top) in view is a
    # pushed one: the labels drawn over the board stand in line with its hexes, not with row/column 0's
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1000, 650))
    path = hex_demo(tmp_path) if axis == "y" else stagger_map(tmp_path, "x", "odd", tile=(56, 64, 32))
    window = App(Session.open(path, fresh=True), screen=screen, time_source=clock, watch=False)
    pygame.event.clear()
    window.frame()
    move(window, window.view.square_centre((4, 3)))
    for _ in range(4):
        post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0))
        window.frame()
    if axis == "y":  # the first row scrolled away above the labels
        post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(300, 300), button=3))
        window.frame()
        for step in range(1, 7):
            move(window, (300, 300 - 10 * step), buttons=(0, 0, 1))
        post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(300, 240), button=3))
        window.frame()
    move(window, (995, 5))
    view, board = window.view, window.board
    assert board is not None and isinstance(board.grid, HexGrid) and board.grid.staggeraxis == axis
    vx, vy, vw, vh = view.viewport
    assert view.pixel(0, 0)[0] < vx and view.pixel(0, 0)[1] < vy  # no margin: labels over the board
    painted = label_pixels(window)
    if axis == "y":  # column labels along the top, over the first row whose hexes show below them
        strip = [py for px, py in painted if py < vy + 40 and px > vx + 40]
        first = next(r for r in range(board.height) if view.square_centre((0, r))[1] >= max(strip))
        across = (min(strip) + max(strip)) // 2
        middles = runs([px for px, py in painted if py == across and px < vx + vw - 40])
        expected = [view.square_centre((x, first))[0] for x in range(board.width)]
    else:  # row labels down the left, on the first column whose hexes show right of them
        strip = [px for px, py in painted if px < vx + 40 and py > vy + 40]
        first = next(c for c in range(board.width) if view.square_centre((c, 0))[0] >= max(strip))
        across = (min(strip) + max(strip)) // 2
        middles = runs([py for px, py in painted if px == across and py < vy + vh - 40])
        expected = [view.square_centre((first, y))[1] for y in range(board.height)]
    assert board.grid.pushed(first) and len(middles) >= 5
    for middle in middles:
        assert min(abs(middle - e) for e in expected) <= 2, (middle, expected)


# The side panel while the mouse sweeps the board (issue #21's hover target, issue #28's rule: no
# work in a frame that grows with the text unless something changed). A hex ray's verdict is often
# longer than the status box's four lines; a pygame_gui text box that overflows builds a new
# scroll bar (four widgets) on every new text, which was ~60 % of a hex hover frame. The status box
# now grows to the tallest sentence it has shown (one re-layout), so hovering sets text only. At
# 1000x650 the hex demo's long caption left it no room to grow: a grown status box now keeps its
# room until the attack panel is down to two verdict lines and the map's caption (which does not
# change while the mouse moves) has given up room, so every sentence is on view at every size.
@pytest.mark.parametrize("size", [(1000, 650), (1280, 800), (2400, 1400)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_sweeping_every_hex_sets_the_status_text_without_a_scroll_bar_each_frame(tmp_path: Path, size: tuple[int, int]) -> None:
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    app = App(Session.open(hex_demo(tmp_path), fresh=True), screen=screen, time_source=Clock(), watch=False)
    pygame.event.clear()
    app.frame()
    board = app.board
    assert board is not None
    start = next(c for c in sorted(board.grid.cells()) if not board.figures_at(c) and board.can_enter(None, c) is None)
    click(app, app.view.square_centre(start))
    assert app.presenter.viewpoint.start == start
    status = app.panel.section(StatusSection)
    first, pitch = status.line_metrics
    cells = sorted(board.grid.cells(), key=lambda c: (c[1], c[0]))
    for cell in cells:  # the first sweep: the box grows to the tallest sentence there is
        move(app, app.view.square_centre(cell))
    box, texts = status.box, set()
    for cell in cells:  # the second: text only, no re-layout, every sentence whole
        move(app, app.view.square_centre(cell))
        texts.add(status.text)
        assert status.box is box  # the panel was not laid out again
        assert box.scroll_bar is None, status.text
        rows = box.text_box_layout.layout_rows
        assert rows and rows[-1].bottom <= box.text_wrap_rect[3]
    assert len(texts) > 10  # a new sentence on most hexes
    assert first + 3 * pitch < box.rect.h <= first + (STATUS_MAX_LINES - 1) * pitch  # grew past four lines
    attack = app.panel.section(AttackSection)  # the attack panel still shows its verdict whole
    assert attack.verdict_box is not None and attack.verdict_box.scroll_bar is None


def test_a_findings_code_is_drawn_on_a_plate_above_its_hex_as_on_squares(app: App) -> None:
    from game.play.findings import Marker
    from game.ui.painter import Overlay

    assert app.board is not None and app.view.cell >= 40  # labels are drawn from 40 px a cell
    cell = (6, 4)
    x, y, w, _ = app.view.square_rect(cell)
    band = pygame.Rect(x, y - 24, w, 22)  # where the plate sits, above the hex's box

    def drawn(*markers: Marker) -> list[tuple[int, ...]]:
        surface = pygame.Surface(app.screen.get_size())
        app.painter.draw(surface, app.board, app.view, Overlay(markers=markers))
        return [tuple(surface.get_at((px, py))) for px in range(band.left, band.right, 2)
                for py in range(band.top, band.bottom, 2)]

    plain = drawn()
    assert drawn(Marker(cell, None, "error", "")) == plain  # an outline alone stays inside the hex
    labelled = drawn(Marker(cell, None, "error", "figure-in-void"))
    changed = [p for p, q in zip(labelled, plain, strict=True) if p != q]
    assert len(changed) > len(plain) // 3  # the dark plate and the code's letters


def test_a_region_finding_is_outlined_as_one_shape(app: App) -> None:
    from game.play.findings import Marker
    from game.ui.painter import Overlay

    assert app.board is not None
    grid = app.board.grid
    a = (6, 4)
    b = grid.around(a)[1]  # the neighbour across side 1
    surface = pygame.Surface(app.screen.get_size())
    app.painter.draw(surface, app.board, app.view, Overlay(markers=(Marker(None, None, "error", "", frozenset({a, b})),)))
    colour = pygame.Color(*theme.marker_colour("error")[:3])

    def mid(side: int, cell: tuple[int, int] = a) -> tuple[int, int]:
        edge = grid.edges_of(cell)[side]
        (x1, y1), (x2, y2) = app.view.lattice_point(edge.a), app.view.lattice_point(edge.b)
        return round((x1 + x2) / 2), round((y1 + y2) / 2)

    assert surface.get_at(mid(1))[:3] != colour[:3]  # the side the two hexes share is not drawn
    for side in (0, 2, 3, 4, 5):
        assert surface.get_at(mid(side))[:3] == colour[:3], side
