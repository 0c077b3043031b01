"""Sight from any square, the viewer side, the keyboard cursor, and the window defects of issue #12.

Real window (SDL dummy driver), real posted events, real maps read by the real loader.
"""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest
from support.window import (
    DOOR_XML,
    GOB,
    ROOK,
    WALL,
    Clock,
    brightness,
    centre,
    click,
    drag,
    key,
    move,
    near,
    post,
    tmx,
    write_map,
)

from game.play.lessons import LESSONS_DIR, lesson_paths
from game.play.session import Session
from game.play.status import SELF_SIGHT
from game.ui import theme
from game.ui.app import App


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, screen: pygame.Surface, clock: Clock) -> App:
    window = App(Session.open(write_map(tmp_path / "board.tmx")), screen=screen, time_source=clock)
    pygame.event.clear()
    window.frame()
    return window

# Two monsters stand on (5,3) in write_map's board: a full square of enemies of "red".


def empty_map(path: Path) -> Path:
    """The 7×5 board with its wall and door but no figures (like every Tuxemon map)."""
    path.write_text(tmx([WALL, DOOR_XML]), encoding="utf-8")
    return path


@pytest.fixture
def bare(tmp_path: Path, screen: pygame.Surface, clock: Clock) -> App:
    window = App(Session.open(empty_map(tmp_path / "bare.tmx")), screen=screen, time_source=clock)
    pygame.event.clear()
    window.frame()
    return window


def test_a_map_without_figures_gets_a_ray_from_a_clicked_square(bare: App) -> None:
    assert not bare.board.figures
    assert "Click any square" in bare.last_frame.status
    click(bare, centre(bare, (1, 1)))
    assert bare.presenter.viewpoint.start == (1, 1) and bare.presenter.selected is None
    move(bare, centre(bare, (5, 1)))  # across the wall V(3,1)
    ray = bare.last_frame.ray
    assert ray is not None and ray.origin == (1, 1) and ray.target == (5, 1) and not ray.clear
    status, kind = bare.last_frame.status_line
    assert kind == "blocked" and status.startswith("From (1,1), viewer no side (the start square is empty")
    assert "wall between (2,1) and (3,1)" in status
    move(bare, centre(bare, (1, 3)))
    assert bare.last_frame.ray.clear and bare.last_frame.status_kind == "clear"
    # the start is marked on the board: the select-ring colour around the square's middle
    cx, cy = centre(bare, (1, 1))
    ring = round(bare.view.cell * 0.22) + max(1, round(bare.view.cell * theme.RING_WIDTH) // 2)
    assert near(bare.screen.get_at((cx + ring, cy)), theme.SELECT_RING)


def test_f_shades_the_field_of_view_of_a_square_without_a_figure(bare: App) -> None:
    click(bare, centre(bare, (1, 1)))
    move(bare, (bare.view.viewport[2] + 40, 10))  # off the board: no ray over the squares
    hidden = centre(bare, (5, 0))  # behind the wall
    seen = centre(bare, (1, 3))
    before = (brightness(bare.screen.get_at(hidden)), brightness(bare.screen.get_at(seen)))
    key(bare, pygame.K_f)
    mask = bare.presenter.field_of_view()
    assert mask is not None and not mask[0, 5] and mask[3, 1]
    assert brightness(bare.screen.get_at(hidden)) < before[0] - 60
    assert brightness(bare.screen.get_at(seen)) == before[1]


def test_clicking_the_start_again_clears_it_and_esc_clears_it_too(bare: App) -> None:
    click(bare, centre(bare, (2, 2)))
    click(bare, centre(bare, (2, 2)))
    assert bare.presenter.viewpoint.start is None
    click(bare, centre(bare, (2, 2)))
    key(bare, pygame.K_ESCAPE)
    assert bare.presenter.viewpoint.start is None


def test_the_keyboard_alone_sets_the_start_and_pins_the_end(bare: App) -> None:
    key(bare, pygame.K_RIGHT, pygame.KMOD_LCTRL)  # the cursor appears in the middle: (3,2), then...
    assert bare.presenter.viewpoint.cursor == (3, 2)
    key(bare, pygame.K_LEFT, pygame.KMOD_LCTRL)
    key(bare, pygame.K_LEFT, pygame.KMOD_LCTRL)
    key(bare, pygame.K_UP, pygame.KMOD_LCTRL)
    assert bare.presenter.viewpoint.cursor == (1, 1)
    key(bare, pygame.K_s)
    assert bare.presenter.viewpoint.start == (1, 1)
    for _ in range(4):
        key(bare, pygame.K_RIGHT, pygame.KMOD_LCTRL)
    key(bare, pygame.K_e)
    assert bare.presenter.pinned == (5, 1)
    assert bare.last_frame.ray is not None and (bare.last_frame.ray.origin, bare.last_frame.ray.target) == ((1, 1), (5, 1))
    assert not bare.last_frame.ray.clear


def test_either_end_of_the_ray_can_be_dragged(bare: App) -> None:
    click(bare, centre(bare, (1, 1)))
    click(bare, centre(bare, (5, 1)), button=3)  # pin the end
    assert bare.presenter.pinned == (5, 1)
    drag(bare, centre(bare, (5, 1)), centre(bare, (5, 4)))
    assert bare.presenter.pinned == (5, 4) and bare.presenter.viewpoint.start == (1, 1)
    drag(bare, centre(bare, (1, 1)), centre(bare, (0, 3)))
    assert bare.presenter.viewpoint.start == (0, 3) and bare.presenter.pinned == (5, 4)
    assert (bare.last_frame.ray.origin, bare.last_frame.ray.target) == ((0, 3), (5, 4))


def test_v_chooses_whose_enemies_block(app: App) -> None:
    # from the empty square (4,3) across the full monsters' square (5,3) to (6,3)
    click(app, centre(app, (4, 3)))
    move(app, centre(app, (6, 3)))
    assert app.presenter.viewpoint.choice == "auto" and not app.last_frame.ray.clear  # no side: every figure counts
    key(app, pygame.K_v)  # monsters: its own figures do not block
    assert app.presenter.viewpoint.choice == "monsters" and app.last_frame.ray.clear
    assert app.last_frame.status.startswith("From (4,3), viewer monsters")
    key(app, pygame.K_v)  # red: two enemies on (5,3) block
    assert app.presenter.viewpoint.choice == "red" and not app.last_frame.ray.clear
    key(app, pygame.K_v)
    assert app.presenter.viewpoint.choice == "no side" and not app.last_frame.ray.clear
    key(app, pygame.K_v)
    assert app.presenter.viewpoint.choice == "auto"


def test_lessons_l29a_and_l29b_show_their_same_square_verdicts(screen: pygame.Surface) -> None:
    paths = lesson_paths(LESSONS_DIR)
    window = App(None, screen=screen, lessons=paths, start_in_lessons=True)
    names = [p.stem for p in paths]
    window.presenter.tour.open(names.index("L29a"))
    window.presenter.enter_lesson()
    window.frame()
    status = window.last_frame.status
    assert "names no ray" not in status
    assert "(2,2) to (2,2) is clear, as expected" in status
    key(window, pygame.K_RIGHTBRACKET)
    assert window.presenter.tour.paths[window.presenter.tour.index].stem == "L29b"
    status = window.last_frame.status
    assert "Archer on (2,2) to itself is blocked, as expected" in status
    assert "never to itself" in status


def test_a_pinned_ray_to_a_figures_own_square_says_it_never_sees_itself(tmp_path: Path, screen: pygame.Surface) -> None:
    path = tmp_path / "alone.tmx"
    from support.window import figure_xml

    path.write_text(tmx([figure_xml(ROOK, "Rook", "red", (1, 1))]), encoding="utf-8")
    window = App(Session.open(path), screen=screen)
    pygame.event.clear()
    window.frame()
    click(window, centre(window, (1, 1)))
    click(window, centre(window, (1, 1)), button=3)
    assert window.last_frame.status_line == (SELF_SIGHT, "blocked")


def test_hovering_an_enemy_does_not_ring_it_as_a_target(app: App) -> None:
    click(app, centre(app, (1, 1)))
    move(app, centre(app, (5, 3)))
    overlay = app.overlay()
    assert overlay.target is None and overlay.target_ids() == ()


def test_esc_clears_the_pin_and_the_attack_target_together(app: App) -> None:
    click(app, centre(app, (1, 1)))
    key(app, pygame.K_t)
    assert app.presenter.attack.targets and app.presenter.pinned is not None
    key(app, pygame.K_ESCAPE)
    assert app.presenter.pinned is None and app.presenter.attack.targets == []
    assert app.presenter.selected == ROOK  # the attacker stays selected


def test_f_dims_the_tokens_standing_where_the_viewer_cannot_see(app: App) -> None:
    click(app, centre(app, (5, 0)))  # an empty square above the closed door H(5,2)
    move(app, (app.view.viewport[2] + 40, 10))
    gob = app.board.figure(GOB)
    cx, cy = app.view.pixel(gob.square[0] + 0.27, gob.square[1] + 0.5)
    app.frame()
    lit = brightness(app.screen.get_at((cx, cy)))
    key(app, pygame.K_f)
    mask = app.presenter.field_of_view()
    assert mask is not None and not mask[gob.square[1], gob.square[0]]
    assert brightness(app.screen.get_at((cx, cy))) < lit * 0.75


def test_a_refused_square_shows_while_dragging_not_only_on_release(app: App, clock: Clock) -> None:
    start, full = centre(app, (1, 1)), centre(app, (5, 3))
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.frame()
    for i in range(1, 7):
        pos = (start[0] + (full[0] - start[0]) * i // 6, start[1] + (full[1] - start[1]) * i // 6)
        move(app, pos, buttons=(1, 0, 0))
    assert app.press is not None and app.press.dragging  # not released yet
    assert app.presenter.refused is not None and app.presenter.refused[0] == (5, 3)
    assert "capacity" in app.last_frame.status and app.last_frame.status_kind == "blocked"
    x, y, w, h = app.view.square_rect((5, 3))
    assert near(app.screen.get_at((x + 1, y + 1)), theme.REFUSED_OUTLINE)
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=full, button=1))
    app.frame()
    assert app.board.figure(ROOK).square == (1, 1)


def resize(window: App, size: tuple[int, int]) -> None:
    pygame.display.set_mode(size, pygame.RESIZABLE)
    post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
    window.frame()


def test_a_bigger_window_refits_the_board_unless_the_user_zoomed(tmp_path: Path) -> None:
    pygame.display.init()
    display = pygame.display.set_mode((1000, 650), pygame.RESIZABLE)
    window = App(Session.open(write_map(tmp_path / "b.tmx")), screen=display)
    window.frame()
    small = window.view.cell
    resize(window, (1600, 1000))
    assert window.view.cell > small * 1.3  # followed the window
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    window.frame()
    zoomed = window.view.cell
    resize(window, (1280, 800))
    assert window.view.cell == zoomed  # the user zoomed: the zoom stays
    key(window, pygame.K_HOME)
    fitted = window.view.cell
    resize(window, (1000, 650))
    assert window.view.cell < fitted  # Home fitted again: resizing follows once more


# --- readable at every size ------------------------------------------------------------------


def test_a_big_window_scales_the_panel_and_clicks_land_on_its_rows(tmp_path: Path) -> None:
    pygame.display.init()
    display = pygame.display.set_mode((2400, 1400), pygame.RESIZABLE)
    odd_door = "<object id='60' type='door' x='32' y='128'><polyline points='0,0 32,0'/></object>"
    window = App(Session.open(write_map(tmp_path / "b.tmx", extra=[odd_door])), screen=display)
    for _ in range(3):
        window.frame()
    assert window.ui_scale == 1.75
    x, y, w, h = window.view.viewport
    assert w == 2400 - round(window.panel.rect.w * 1.75) and h == 1400  # the panel is 1.75× as wide
    from game.ui.panel import FindingsSection

    findings = window.panel.section(FindingsSection)
    button = findings.list.item_list[0]["button_element"]
    assert button is not None
    # the row's place on the screen: its UI-unit rectangle times the scale, right of the board
    px = w + round((button.rect.centerx - window.panel.rect.x) * 1.75)
    py = round(button.rect.centery * 1.75)
    window.view.pan(300, 0)
    before = window.view.origin
    click(window, (px, py))
    window.frame()  # the row's press event reaches the list ...
    window.frame()  # ... whose selection event reaches the window
    assert window.presenter.focused is not None and window.presenter.focused == window.session.findings[0]
    assert window.view.origin != before  # centred on the finding
    # the text is drawn 1.75× as tall: a heading's glyphs span more rows than at scale 1
    heading = findings.label
    top = round(heading.rect.top * 1.75)
    bottom = round(heading.rect.bottom * 1.75)
    rows = [yy for yy in range(top, bottom) if any(
        brightness(window.screen.get_at((xx, yy))) > 450 for xx in range(w + 10, w + 200))]
    assert rows and rows[-1] - rows[0] >= 14


def test_the_ui_scale_setting_wins_over_the_window(tmp_path: Path) -> None:
    pygame.display.init()
    display = pygame.display.set_mode((2400, 1400), pygame.RESIZABLE)
    window = App(Session.open(write_map(tmp_path / "b.tmx")), screen=display, ui_scale=1.0)
    window.frame()
    assert window.ui_scale == 1.0 and window.panel.rect.w == 320
    resize(window, (1280, 800))
    window2 = App(Session.open(write_map(tmp_path / "c.tmx")), screen=pygame.display.get_surface())
    resize(window2, (2560, 1600))
    assert window2.ui_scale == 2.0


def test_the_help_fits_a_short_window_on_pages_in_an_even_typeface(tmp_path: Path) -> None:
    from game.ui.help import HelpOverlay, _face

    pygame.display.init()
    display = pygame.display.set_mode((1000, 650))
    window = App(Session.open(write_map(tmp_path / "b.tmx")), screen=display)
    window.frame()
    key(window, pygame.K_F1)
    pages = window.help.pages
    assert window.help_on and pages >= 2 and window.help.page == 0
    key(window, pygame.K_F1)  # the next page
    assert window.help_on and window.help.page == 1
    for _ in range(pages - 1):
        key(window, pygame.K_F1)  # past the last page: closed
    assert not window.help_on and window.help.page == 0
    # Noto Sans, not pygame's default face: "attack" is as wide as "at" + "tack" (no wide gap)
    face = _face(16)
    assert abs(face.size("attack")[0] - face.size("at")[0] - face.size("tack")[0]) <= 2
    assert HelpOverlay().pages == 1


# --- measuring ---------------------------------------------------------------------------------


def test_w_overlays_the_movement_reach_and_digits_set_the_steps(app: App) -> None:
    from game.core.measure import reach

    click(app, centre(app, (1, 1)))  # Rook
    move(app, (app.view.viewport[2] + 40, 10))
    x, y, _, _ = app.view.square_rect((1, 3))
    probe = (x + 2, y + 2)  # a corner of a reached square, away from tokens
    plain = tuple(app.screen.get_at(probe))[:3]
    key(app, pygame.K_w)
    found = app.presenter.reach()
    rook = app.board.figure(ROOK)
    assert found == reach(app.board, (1, 1), 4, rook.side, ROOK)
    assert (4, 1) not in found or found[(4, 1)] > 3  # the wall V(3,*) forces the long way round
    tinted = tuple(app.screen.get_at(probe))[:3]
    assert tinted != plain and tinted[2] >= plain[2]  # the blue reach tint
    key(app, pygame.K_2)
    assert app.presenter.reach() == reach(app.board, (1, 1), 2, rook.side, ROOK)
    assert max(app.presenter.reach().values()) == 2


def test_m_shows_the_ruler_from_an_empty_square_with_its_range_ring(bare: App) -> None:
    from game.ui.measure_overlay import RING

    click(bare, centre(bare, (1, 1)))
    key(bare, pygame.K_m)
    move(bare, centre(bare, (4, 3)))
    assert bare.last_frame.ruler.text == "5 orthogonal steps"
    x, y, w, h = bare.view.square_rect((6, 1))  # 5 steps away, on the ring
    assert near(bare.screen.get_at((x + 1, y + h // 2)), RING)


# --- notices and the banner ----------------------------------------------------------------------


def test_a_corrupt_autosave_stays_on_a_banner_until_dismissed(tmp_path: Path, screen: pygame.Surface) -> None:
    from game.play.presenter import NOTICE_TIME
    from game.ui.banner import BANNER_BG

    clock = Clock()
    path = write_map(tmp_path / "board.tmx")
    (tmp_path / "board.sightline.json").write_text("{oops", encoding="utf-8")
    window = App(Session.open(path), screen=screen, time_source=clock)
    pygame.event.clear()
    window.frame()
    clock.now += NOTICE_TIME * 3  # the status line's message is long gone ...
    window.frame()
    text = window.presenter.banner_text()
    assert text is not None and "corrupt-1" in text  # ... the banner stays
    assert window.banner.rect is not None and window.banner.rect.bottom <= window.view.viewport[1]
    x, y = window.banner.rect.topleft  # above the board, which is laid out under it
    assert tuple(window.screen.get_at((x + 4, y + 4)))[:3] == BANNER_BG
    click(window, (x + 40, y + 8))  # a click on the banner dismisses it (and selects nothing)
    assert window.presenter.banner_text() is None and window.presenter.selected is None
    window.frame()
    assert tuple(window.screen.get_at((x + 4, y + 4)))[:3] != BANNER_BG


def test_a_long_banner_wraps_instead_of_being_cut(tmp_path: Path, screen: pygame.Surface) -> None:
    window = App(Session.open(write_map(tmp_path / "board.tmx")), screen=screen)
    long = "cannot autosave to " + "/very/long/folder/name" * 8 + ": Permission denied"
    window.presenter.banners.append(long)
    window.frame()
    assert window.banner.band is not None and window.banner.band[0].startswith(long)
    band = window.banner.band[2]
    assert band.get_height() > 2 * window.banner.font().get_linesize()  # two lines or more
    key(window, pygame.K_ESCAPE)
    assert window.presenter.banners == []


def test_hovering_a_figure_shows_its_card_without_selecting_it(app: App) -> None:
    move(app, centre(app, (5, 3)))
    assert app.presenter.selected is None and app.last_card is not None
    from game.ui.board_labels import card_lines

    gob = app.board.figure(GOB)
    lines = card_lines(app.board, gob)
    assert lines[0] == gob.label and gob.side in lines[1] and any("life" in line for line in lines)
    move(app, centre(app, (2, 2)))  # an empty square: no card
    assert app.last_card is None


def test_coordinates_are_labelled_on_the_board_edges_and_g_hides_them(bare: App) -> None:
    from game.ui.board_labels import LABEL_BG

    move(bare, (bare.view.viewport[2] + 40, 10))
    cx, _ = bare.view.square_centre((3, 0))
    _, top = bare.view.pixel(0, 0)
    probe_y = top - 8
    with_labels = tuple(bare.screen.get_at((cx, probe_y)))[:3]
    key(bare, pygame.K_g)
    without = tuple(bare.screen.get_at((cx, probe_y)))[:3]
    assert with_labels != without and not bare.presenter.coordinates_on
    assert LABEL_BG[:3] != without


def test_a_ray_names_edges_and_corners_by_the_squares_they_part(app: App) -> None:
    click(app, centre(app, (1, 1)))
    move(app, centre(app, (5, 1)))
    status = app.last_frame.status
    assert "wall between (2,1) and (3,1)" in status
    assert not re.search(r"[VH]\(\d+,\d+\)", status)  # one notation: squares only


def test_ctrl_l_saves_the_whole_log_as_text(app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    long = "Thistle attacks Cinder (Throwing Knife, ranged 2): " + "a long outcome " * 20
    app.session.history.note(long)
    drag(app, centre(app, (1, 1)), centre(app, (2, 3)))
    key(app, pygame.K_l, pygame.KMOD_LCTRL)
    text = (tmp_path / "sightline-board-log.txt").read_text(encoding="utf-8")
    assert long in text and "move Rook (1,1) -> (2,3)" in text


def test_a_region_finding_outlines_its_whole_region(tmp_path: Path, screen: pygame.Surface) -> None:
    # a wall box around (5,0)-(6,1): 4 squares nobody can reach, a figure stranded there (an error)
    box = ("<object id='70' type='wall' x='160' y='0'><polyline points='0,0 0,64 64,64'/></object>"
           "<object id='71' name='Hermit' type='figure' x='208' y='48'><point/></object>")
    path = tmp_path / "box.tmx"
    path.write_text(tmx([box]), encoding="utf-8")
    window = App(Session.open(path), screen=screen)
    window.frame()
    finding = next(f for f in window.session.findings if f.code == "region-unreachable")
    marker = next(m for m in window.overlay().markers if m.label == "region-unreachable")
    assert marker.region == {(5, 0), (6, 0), (5, 1), (6, 1)} and finding.square in marker.region
    # drawn as one outline around the 2x2 block: its corners, not four boxes
    from game.ui.ray_shape import region_boundary

    assert len(region_boundary(marker.region)) == 4
    colour = theme.marker_colour("error")
    x, y, w, h = window.view.square_rect((5, 1))
    assert near(window.screen.get_at((x + w // 2, y + h - 1)), colour, 60)  # the outline's bottom
    assert not near(window.screen.get_at((x + w - 2, y + h // 2)), colour, 60)  # no line between squares
