"""The large readers (the log: Shift+L; the findings: I), the findings' filter and next/previous
keys (F4, F3), the coverage heat map (H), health bars, and the window's own wording.

Real parts: maps written as Tiled files and read by the real loader, the real window under the
dummy SDL driver, real posted events (keys, clicks, the wheel, drags), the real linter and the
real coverage count.
"""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest
from support.window import (
    Clock,
    centre,
    click,
    drag,
    figure_xml,
    grid_px,
    key,
    move,
    post,
    tmx,
    write_map,
)

from game.designer.coverage import coverage
from game.play.attack import PROMPTS
from game.play.session import Session
from game.play.wording import WINDOW_PROMPTS
from game.ui.app import App
from game.ui.panel import FindingsSection
from game.ui.reader import MIN_SHARE

#: three squares with three figures each: capacity findings (errors) on (6,4)... and a wall box
CROWD = [figure_xml(60 + i, f"Extra{i}", "red", (6, 4)) for i in range(3)]
ODD_DOOR = "<object id='90' type='door' x='32' y='128'><polyline points='0,0 32,0'/></object>"  # a warning
BOX = "<object id='70' type='wall' x='160' y='0'><polyline points='0,0 0,64 64,64'/></object>"



@pytest.fixture
def app(tmp_path: Path, screen: pygame.Surface) -> App:
    window = App(Session.open(write_map(tmp_path / "board.tmx")), screen=screen, time_source=Clock())
    pygame.event.clear()
    window.frame()
    return window


def wheel(app: App, pos: tuple[int, int], y: int) -> None:
    move(app, pos)
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False))
    app.frame()


def open_map(path: Path, screen: pygame.Surface) -> App:
    window = App(Session.open(path), screen=screen, time_source=Clock())
    pygame.event.clear()
    window.frame()
    return window


# --- the log reader -----------------------------------------------------------------------------


def test_shift_l_shows_every_log_entry_whole_scrolls_resizes_and_saves(
    app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    long = "Thistle attacks Cinder (Throwing Knife, ranged 2): " + " ".join(f"outcome{n}" for n in range(60))
    app.session.history.note(long)
    for n in range(30):
        app.session.history.note(f"note number {n}")
    key(app, pygame.K_l, pygame.KMOD_LSHIFT)
    reader = app.reader
    assert reader.kind == "log" and reader.rect is not None
    laid = reader.entry_lines()
    whole = next(lines for lines in laid if lines[0].startswith("1. Thistle"))
    assert len(whole) > 1 and " ".join(line.strip() for line in whole) == f"1. {long}"  # never cut
    # newest first; the wheel scrolls down and back
    assert reader.visible_text()[0].startswith("31. note number 29")
    wheel(app, reader.rect.center, -3)
    assert reader.scroll > 0
    key(app, pygame.K_END)
    assert "outcome59" in " ".join(reader.visible_text())  # the oldest entry, at the very bottom
    key(app, pygame.K_HOME)
    assert reader.scroll == 0
    # drag its top edge up: taller; down past the limit: the smallest share
    top = reader.rect.top
    drag(app, (reader.rect.centerx, top + 2), (reader.rect.centerx, 40))
    assert reader.rect.top < top and reader.share > 0.8
    drag(app, (reader.rect.centerx, reader.rect.top + 2), (reader.rect.centerx, 790))
    assert reader.share == MIN_SHARE
    # the save button writes the whole log
    save = next(rect for rect, name in reader.buttons if name == "save")
    click(app, save.center)
    text = (tmp_path / "sightline-board-log.txt").read_text(encoding="utf-8")
    assert long in text and "note number 29" in text
    copy = next(rect for rect, name in reader.buttons if name == "copy")
    click(app, copy.center)
    pasted = pygame.scrap.get_text()
    assert long in pasted and pasted.count("\n") == len(app.session.history.log)
    # a click inside the reader never reaches the board under it
    before = app.presenter.viewpoint.start
    click(app, (reader.rect.x + 30, reader.rect.bottom - 10))
    assert app.presenter.viewpoint.start == before and app.presenter.selected is None
    key(app, pygame.K_ESCAPE)
    assert not reader.open and reader.rect is None


def test_the_reader_shows_the_log_in_the_windows_words(app: App) -> None:
    click(app, grid_px(app, 5.5, 2.0))  # the door on H(5,2)
    key(app, pygame.K_l, pygame.KMOD_LSHIFT)
    text = " ".join(app.reader.visible_text())
    assert "door between (5,1) and (5,2)" in text and "H(5,2)" not in text


# --- the findings reader, filter, next / previous ---------------------------------------------


def test_i_lists_every_finding_whole_f4_filters_and_a_click_goes_to_it(tmp_path: Path, screen: pygame.Surface) -> None:
    path = tmp_path / "crowd.tmx"
    path.write_text(tmx([BOX, ODD_DOOR, *CROWD]), encoding="utf-8")
    window = open_map(path, screen)
    findings = window.session.findings
    severities = {str(f.severity.value) for f in findings}
    assert severities == {"error", "warning"}, findings
    key(window, pygame.K_i)
    reader = window.reader
    assert reader.kind == "findings"
    assert len(reader.entry_lines()) == len(findings)
    assert reader.title.startswith("Map check: ") and "0 warnings" not in reader.title
    for number, (finding, lines) in enumerate(zip(findings, reader.entry_lines(), strict=True), 1):
        assert " ".join(line.strip() for line in lines).startswith(f"{number}. {finding.severity.value}")
        assert finding.message.split()[-1] in lines[-1] or (finding.hint or "").split()[-1] in lines[-1]
    # F4: errors only, in the reader and in the panel's heading
    key(window, pygame.K_F4)
    assert reader.severity == "error"
    assert all(" error " in lines[0] for lines in reader.entry_lines())
    section = window.panel.section(FindingsSection)
    assert section.label.text.endswith("(errors)") and " of " in section.label.text
    # the "warnings" button
    warnings_button = next(rect for rect, name in reader.buttons if name == "warning")
    click(window, warnings_button.center)
    assert reader.severity == "warning" and all(" warning " in lines[0] for lines in reader.entry_lines())
    # a click on the first row: that finding is focused, the board centred on it
    row = next(rect for rect, index in reader.rows if index == 0)
    click(window, row.center)
    target = [f for f in findings if f.severity.value == "warning"][0]
    assert window.presenter.focused == target
    assert window.last_frame.status.startswith("Map check, warning")
    key(window, pygame.K_F4)  # back to all
    assert reader.severity == "all"
    key(window, pygame.K_ESCAPE)
    assert not reader.open


def test_f3_and_shift_f3_walk_the_findings_centring_each(tmp_path: Path, screen: pygame.Surface) -> None:
    path = tmp_path / "crowd.tmx"
    path.write_text(tmx([BOX, ODD_DOOR, *CROWD]), encoding="utf-8")
    window = open_map(path, screen)
    findings = window.session.findings
    assert len(findings) >= 2
    key(window, pygame.K_F3)
    assert window.presenter.focused == findings[0]
    key(window, pygame.K_F3)
    assert window.presenter.focused == findings[1]
    if findings[1].square is not None:
        x, y, w, h = window.view.viewport
        cx, cy = window.view.square_centre(findings[1].square)
        assert abs(cx - (x + w / 2)) <= 1 and abs(cy - (y + h / 2)) <= 1
    key(window, pygame.K_F3, pygame.KMOD_LSHIFT)
    assert window.presenter.focused == findings[0]
    key(window, pygame.K_F3, pygame.KMOD_LSHIFT)  # before the first: the last
    assert window.presenter.focused == findings[-1]


def test_a_long_finding_row_in_the_panel_wraps_and_any_of_its_rows_picks_it(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    path = tmp_path / "crowd.tmx"
    path.write_text(tmx([BOX, ODD_DOOR, *CROWD]), encoding="utf-8")
    window = open_map(path, screen)
    section = window.panel.section(FindingsSection)
    wrapped = next(n for n in range(1, len(window.session.findings) + 1) if len(section.rows_of(n)) > 1)
    assert not any(item["text"].rstrip().endswith("…") for item in section.list.item_list)
    last_row = [b for b in section.rows_of(wrapped) if b is not None][-1]
    click(window, last_row.rect.center)
    window.frame()
    window.frame()
    assert window.presenter.focused == window.session.findings[wrapped - 1]


# --- the coverage heat map -------------------------------------------------------------------------


def test_h_tints_squares_by_how_many_squares_see_them_worked_out_off_the_frame(app: App) -> None:
    square = (1, 3)
    cx, cy = centre(app, square)
    probe = (cx - round(app.view.cell * 0.4), cy - round(app.view.cell * 0.4))  # off the token
    before = tuple(app.screen.get_at(probe))[:3]
    key(app, pygame.K_h)
    assert app.presenter.heat_on
    app.heat.wait(60)
    move(app, (cx, cy))
    after = tuple(app.screen.get_at(probe))[:3]
    assert after != before
    expected = int(coverage(app.board).seen_by[square[1], square[0]])
    assert f"(1,3) is seen from {expected}" in app.heat.legend
    key(app, pygame.K_h)
    assert tuple(app.screen.get_at(probe))[:3] == before


def test_opening_a_door_works_the_coverage_out_again(app: App) -> None:
    key(app, pygame.K_h)
    app.heat.wait(60)
    app.frame()
    closed = app.heat.result(app.board)
    assert closed is not None
    click(app, grid_px(app, 5.5, 2.0))  # the door on H(5,2): closed -> open
    app.heat.result(app.board)  # a new door state: worked out again
    app.heat.wait(60)
    opened = app.heat.result(app.board)
    assert opened is not None and opened.seen_by.sum() > closed.seen_by.sum()


# --- tokens, words ----------------------------------------------------------------------------------


def test_health_is_a_bar_with_the_number_not_a_row_of_dots(tmp_path: Path, screen: pygame.Surface) -> None:
    from game.ui import theme

    hardy = ("<object id='80' name='Hardy' type='figure' x='112' y='112'><properties>"
             "<property name='side' value='red'/><property name='life' type='int' value='18'/>"
             "<property name='wounds' type='int' value='6'/></properties><point/></object>")
    path = tmp_path / "hardy.tmx"
    path.write_text(tmx([hardy]), encoding="utf-8")
    window = open_map(path, screen)
    cx, cy = centre(window, (3, 3))
    radius = round(window.view.cell * theme.TOKEN_RADIUS)
    # the longest run of life-white pixels along the rows under the label: a bar, 2/3 of its width
    best = 0
    for y in range(cy, cy + radius):
        run = longest = 0
        for x in range(cx - radius, cx + radius):
            run = run + 1 if tuple(window.screen.get_at((x, y)))[:3] == theme.PIP_LIFE else 0
            longest = max(longest, run)
        best = max(best, longest)
    assert best >= radius * 1.3 * 12 / 18 * 0.8, best


def test_a_square_full_of_enemies_is_said_in_plain_words(app: App) -> None:
    click(app, centre(app, (1, 1)))  # Rook (red)
    move(app, centre(app, (6, 3)))  # past the two monsters on (5,3)
    status = app.last_frame.status
    assert "Gob and Orc, 2 figures hostile to the red side" in status
    assert "enemies of" not in status and not re.search(r"[VH]\(\d+,\d+\)", status)


def test_the_attack_prompts_are_the_windows_and_play_keeps_neutral_ones(app: App) -> None:
    key(app, pygame.K_r)  # nothing selected
    assert app.last_frame.status == WINDOW_PROMPTS["no_attacker"] or app.presenter.notice[0] == WINDOW_PROMPTS["no_attacker"]
    assert "click" not in " ".join(PROMPTS.values()) and "press" not in " ".join(PROMPTS.values())


def test_the_map_check_heading_is_never_cut_while_a_broken_save_is_shown(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    path = write_map(tmp_path / "b.tmx")
    window = App(Session.open(path), screen=screen, time_source=clock)
    pygame.event.clear()
    window.frame()
    path.write_text("<map orientation='orthogonal' width='7'", encoding="utf-8")
    key(window, pygame.K_F5)
    window.frame()
    heading = window.panel.section(FindingsSection).label.text
    assert window.session.reload_error is not None
    assert heading.endswith("last good board") and "clean" not in heading


def test_the_lessons_give_the_map_check_and_log_room_to_the_lesson_text(app: App) -> None:
    from game.ui.panel import LESSON_TEXT_PX, LogSection, StatusSection

    panel = app.panel
    sections = panel.sections
    findings_at, log_at = sections.index(panel.section(FindingsSection)), sections.index(panel.section(LogSection))
    status_at = sections.index(panel.section(StatusSection))
    before = panel.heights[status_at]
    key(app, pygame.K_l)
    assert app.presenter.lesson_mode
    app.frame()
    assert panel.heights[findings_at] == 0 and panel.heights[log_at] == 0
    assert panel.heights[status_at] > before
    assert panel.section(FindingsSection).label is None and panel.section(LogSection).label is None
    assert f"pixel_size={LESSON_TEXT_PX}" in panel.section(StatusSection).text and LESSON_TEXT_PX >= 17
    key(app, pygame.K_l)  # back to the map: both come back
    app.frame()
    assert not app.presenter.lesson_mode and panel.heights[findings_at] > 0 and panel.heights[log_at] > 0
    assert panel.section(FindingsSection).label is not None and panel.section(LogSection).label is not None


def test_the_board_under_the_reader_is_not_hovered_and_a_finding_centres_above_it(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    path = tmp_path / "crowd.tmx"
    path.write_text(tmx([BOX, ODD_DOOR, *CROWD]), encoding="utf-8")
    window = open_map(path, screen)
    key(window, pygame.K_i)
    reader = window.reader
    assert reader.rect is not None
    move(window, (reader.rect.x + 40, reader.rect.bottom - 20))
    assert window.presenter.hover is None and window.last_card is None
    key(window, pygame.K_F3)
    finding = window.presenter.focused
    assert finding is not None and finding.square is not None
    x, y, w, h = window.view.viewport
    cx, cy = window.view.square_centre(finding.square)
    assert abs(cy - (y + (h - reader.rect.h) / 2)) <= 1  # the middle of the board left free
    assert window.last_card is None  # the finding's square is not under the mouse: no card


def test_the_panels_enlarge_buttons_open_the_log_and_the_findings_large(app: App) -> None:
    from game.ui.panel import LogSection

    log_button = app.panel.section(LogSection).enlarge
    assert log_button is not None
    click(app, log_button.rect.center)
    app.frame()  # the button's press event reaches the window
    assert app.reader.kind == "log"
    findings_button = app.panel.section(FindingsSection).enlarge
    click(app, findings_button.rect.center)
    app.frame()
    assert app.reader.kind == "findings"
    heading = app.panel.section(LogSection).label
    assert heading.rect.right <= log_button.rect.left  # the heading gives the button its room


def test_a_board_too_big_for_the_heat_map_says_so_in_one_line(tmp_path: Path, screen: pygame.Surface) -> None:
    from game.ui.heat import MAX_SQUARES

    path = tmp_path / "big.tmx"
    path.write_text(tmx([], width=100, height=100), encoding="utf-8")
    assert MAX_SQUARES < 100 * 100
    window = open_map(path, screen)
    key(window, pygame.K_h)
    assert "more than" in window.heat.legend and "sightline report" in window.heat.legend
    assert window.heat._job is None  # never started: no count on a board that big
