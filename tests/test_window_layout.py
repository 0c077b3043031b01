"""The window's layout: side-panel sections sized by their content, resizing, screenshots.

Real parts: the bundled sample maps read by the real loader (never autosaved here), the real
pygame_gui panel under the dummy SDL driver, real pygame events, the real command line.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pygame
import pygame_gui
import pytest

from game.cli import main
from game.core.findings import Finding, Severity
from game.play.session import Session
from game.ui.app import GUI_THEME, App
from game.ui.attack_panel import AttackSection
from game.ui.panel import (
    GROWN_KEEP,
    HEADING_HEIGHT,
    FigureSection,
    FindingsSection,
    LogSection,
    MapSection,
    PanelInfo,
    SidePanel,
    StatusSection,
    plan_heights,
)

REPO = Path(__file__).resolve().parent.parent
SIZES = [(1280, 800), (1000, 650)]


class Clock:
    """The window's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def open_app(name: str, size: tuple[int, int]) -> App:
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    session = Session.open(REPO / "maps" / f"{name}.tmx", autosave=False, fresh=True)
    window = App(session, screen=screen, time_source=Clock(), watch=False)
    pygame.event.clear()
    window.frame()
    return window


def select(window: App, label: str) -> int:
    figure = next(f for f in window.board.figures.values() if f.label == label)
    window.presenter.select(figure.id)
    window.frame()
    return figure.id


def text_fits(box: object) -> bool:
    """A pygame_gui text box shows all its text: no scroll bar, last row inside the box."""
    rows = box.text_box_layout.layout_rows  # type: ignore[attr-defined]
    return box.scroll_bar is None and (not rows or rows[-1].bottom <= box.text_wrap_rect[3])  # type: ignore[attr-defined]


# --- section heights from their content -------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("name", "figure"), [("demo", "Ember"), ("conquest", "Longbowman")])
def test_map_and_figure_text_is_whole_at_both_window_sizes(
    name: str, figure: str, size: tuple[int, int]
) -> None:
    window = open_app(name, size)
    select(window, figure)
    panel = window.panel
    figure_section = panel.section(FigureSection)
    map_section = panel.section(MapSection)
    assert figure_section.label.text == f"Selected figure: {figure}"
    stats = window.board.figure(window.presenter.selected).stats
    for key_name, value in stats.items():  # blank properties (Conquest's "rules") are left out
        words = key_name.replace("_", " ")  # wound_limit is written "wound limit"
        assert (words in figure_section.text) == bool(str(value).strip()), key_name
        assert "_" not in figure_section.text.split("<br>", 1)[-1], figure_section.text
    assert text_fits(figure_section.box), figure_section.text
    assert text_fits(map_section.box), map_section.text
    # every section inside the window, none overlapping the next
    tops = [s.label.rect.top if hasattr(s, "label") and s.label is not None else None for s in panel.sections]
    assert all(t is not None for t in tops[:3])
    assert sum(panel.heights) <= size[1]
    attack = panel.section(AttackSection)
    assert attack.roll_button.rect.bottom <= size[1]
    assert text_fits(attack.verdict_box)


def test_the_figure_section_grows_with_a_longer_figure_and_shrinks_back() -> None:
    window = open_app("conquest", (1280, 800))
    index = window.panel.sections.index(window.panel.section(FigureSection))
    window.presenter.select(None)
    window.frame()
    empty = window.panel.heights[index]
    select(window, "Longbowman")
    tall = window.panel.heights[index]
    assert tall > empty + 40  # four wrapped lines of stats against one hint line
    window.presenter.select(None)
    window.frame()
    assert window.panel.heights[index] == empty


def test_plan_heights_gives_up_the_log_and_findings_first() -> None:
    wants = [120, 140, None, 295, None, None]  # map, figure, status, attack, findings, log
    mins = [62, 82, 90, 203, 52, 22]
    flex, keep = [0, 0, 2, 0, 1, 2], [3, 4, 1, 2, 0, 0]
    roomy = plan_heights(wants, mins, flex, keep, 900)
    assert roomy[:2] == [120, 140] and roomy[3] == 295 and sum(roomy) == 900
    short = plan_heights(wants, mins, flex, keep, 700)
    assert short[4:] == [52, 22] and short[2] == 90  # the flexible ones at their least
    assert short[3] == 700 - (120 + 140 + 90 + 52 + 22)  # then the attack panel's chart
    assert short[:2] == [120, 140]  # the texts keep their height longest
    tiny = plan_heights(wants, mins, flex, keep, 600)  # the attack panel at its least too
    assert tiny == [120 - 27, 140, 90, 203, 52, 22]  # then the map's text, the figure's last
    # the attack panel's comfort (two verdict lines, 14 px over its least) goes after the map's text
    comforts = [62, 82, 90, 217, 52, 22]
    assert plan_heights(wants, mins, flex, keep, 600, comforts) == [120 - 41, 140, 90, 217, 52, 22]
    assert plan_heights(wants, mins, flex, keep, 520, comforts) == [62, 82, 90, 217 - 5, 52, 22]  # then to the least


def test_a_grown_status_box_keeps_its_room_longer() -> None:
    # map, figure, status (grown to eight lines: keep 3.5), attack, findings, log
    wants = [210, 56, 210, 262, None, None]
    mins = [62, 56, 112, 170, 22, 22]
    flex, keep = [0, 0, 2, 0, 0, 2], [3, 4, GROWN_KEEP, 2, 0, 0]
    comforts = [62, 82, 112, 184, 22, 22]
    heights = plan_heights(wants, mins, flex, keep, 609, comforts)  # the hex demo's panel at 1000x650
    assert heights[2] == 210 and heights[3] == 184  # the whole sentence; two verdict lines
    assert heights[0] == 609 - (56 + 210 + 184 + 22 + 22) > 62  # the map's text gave the rest


def test_the_status_box_grows_for_a_long_sentence_in_a_short_window() -> None:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((400, 700))
    manager = pygame_gui.UIManager((400, 700), GUI_THEME)
    status = StatusSection()
    caption = "a caption that goes on and on " * 12
    panel = SidePanel(manager, pygame.Rect(0, 0, 320, 400), [MapSection(), status, LogSection()])
    panel.refresh(PanelInfo(subtitle=caption, status="short"))
    assert status.box is not None and status.keep == 1 and not status.grown
    roomy_map = panel.heights[0]
    long = "a ray's verdict in many words " * 10
    panel.refresh(PanelInfo(subtitle=caption, status=long))  # noted: it did not fit
    panel.refresh(PanelInfo(subtitle=caption, status=long))  # laid out again, the box grown
    assert status.grown and status.keep == GROWN_KEEP
    assert status.box.scroll_bar is None and status.text.count("many words") == 10
    assert panel.heights[0] < roomy_map  # the caption gave the room (it scrolls)


def test_a_short_window_folds_the_log_into_its_heading() -> None:
    pygame.display.init()
    pygame.display.set_mode((400, 300))
    manager = pygame_gui.UIManager((400, 300))
    log = LogSection()
    panel = SidePanel(manager, pygame.Rect(0, 0, 320, 150), [StatusSection(), log])
    panel.refresh(PanelInfo(status="a fairly long status line " * 3, log=["moved Rook", "door open"], log_serial=2))
    assert log.folded and log.label.text == "Log: door open"
    panel.layout(pygame.Rect(0, 0, 320, 500))
    panel.refresh(PanelInfo(log=["moved Rook", "door open"], log_serial=3))
    assert not log.folded and log.label.text == "Log" and log.box.visible
    assert log.text.startswith("door open")


# --- grammar --------------------------------------------------------------------------------


def test_the_map_check_heading_agrees_in_number() -> None:
    pygame.display.init()
    pygame.display.set_mode((400, 300))
    manager = pygame_gui.UIManager((400, 300))
    findings = FindingsSection()
    panel = SidePanel(manager, pygame.Rect(0, 0, 320, 300), [findings])
    warning = Finding("odd", Severity.WARNING, "something odd", None, (1, 1))
    error = Finding("bad", Severity.ERROR, "something wrong", None, (2, 2))
    panel.refresh(PanelInfo(findings=[warning]))
    assert findings.label.text == "Map check: 1 warning"
    panel.refresh(PanelInfo(findings=[warning, error, error]))
    assert findings.label.text == "Map check: 2 errors, 1 warning"
    panel.refresh(PanelInfo(findings=[]))
    assert findings.label.text == "Map check: clean"
    assert panel.heights == [HEADING_HEIGHT]  # nothing to list: just the heading


def test_no_s_in_brackets_in_the_window_texts() -> None:
    window = open_app("demo", (1280, 800))
    info = window.last_frame.panel
    assert "14 figures" in info.subtitle
    in_quotes = re.compile(r"""["'][^"'\n]*\w\(s\)[^"'\n]*["']""")  # "1 warning(s)" in a string
    sources = [*(REPO / "game" / "ui").glob("*.py"), *(REPO / "game" / "play").glob("*.py")]
    assert not [p.name for p in sources if in_quotes.search(p.read_text(encoding="utf-8"))]
    assert in_quotes.search('label = f"{n} warning(s)"')


# --- resizing -------------------------------------------------------------------------------


def test_resizing_keeps_the_zoom_and_the_centre_and_home_still_fits() -> None:
    window = open_app("demo", (1280, 800))
    x, y, w, h = window.view.viewport
    window.view.zoom_at(1.6, x + w / 3, y + h / 3)
    cell = window.view.cell
    centre = window.view.to_grid(x + w / 2, y + h / 2)
    pygame.display.set_mode((1000, 650), pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1000, h=650, size=(1000, 650)))
    window.frame()
    x, y, w, h = window.view.viewport
    assert (x + w, h) == (1000 - window.panel.rect.w, 650)
    assert window.view.cell == cell
    after = window.view.to_grid(x + w / 2, y + h / 2)
    assert after == pytest.approx(centre)
    assert window.panel.rect.h == 650
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0, unicode="", scancode=0))
    window.frame()
    assert window.view.cell < cell  # Home fits the whole board again
    board_w = window.board.width * window.view.cell
    assert board_w <= w


# --- screenshots ----------------------------------------------------------------------------


def test_a_screenshot_that_cannot_be_written_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    out = blocker / "x.png"
    code = main(["play", str(REPO / "maps" / "demo.tmx"), "--fresh", "--frames", "2", "--screenshot", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "cannot write" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_the_lessons_give_the_attack_panels_room_to_the_lesson_text() -> None:
    window = open_app("demo", (1280, 800))
    panel = window.panel
    attack = panel.section(AttackSection)
    status = panel.section(StatusSection)
    index = panel.sections.index(attack)
    status_index = panel.sections.index(status)
    outside = panel.heights[status_index]
    assert panel.heights[index] > 200 and attack.roll_button is not None
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l", scancode=0))
    window.frame()
    assert window.presenter.lesson_mode
    assert panel.heights[index] == 0 and attack.hidden and attack.roll_button is None
    assert panel.heights[status_index] > outside + 100  # shared with the log
    assert text_fits(status.box), status.text  # the lesson's whole explanation
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l", scancode=0))
    window.frame()
    assert not window.presenter.lesson_mode and not attack.hidden and attack.roll_button is not None
    assert panel.heights[index] > 200


# --- whole lines, cut texts ------------------------------------------------------------------


def cut_rows(box: object) -> list[object]:
    """The text rows a pygame_gui text box shows only in part (cut by its bottom edge)."""
    visible = box.text_wrap_rect[3]  # type: ignore[attr-defined]
    rows = box.text_box_layout.layout_rows  # type: ignore[attr-defined]
    return [row for row in rows if row.top < visible - 2 and row.bottom > visible + 1]


@pytest.mark.parametrize("height", [230, 261, 300, 333, 367])
def test_the_flexible_boxes_show_whole_lines_only(height: int) -> None:
    pygame.display.init()
    pygame.display.set_mode((400, 400))
    manager = pygame_gui.UIManager((400, 400))
    status, log = StatusSection(), LogSection()
    panel = SidePanel(manager, pygame.Rect(0, 0, 320, height), [MapSection(), status, log])
    lines = [f"move Rook ({n},1) -> ({n},2)" for n in range(40)]
    panel.refresh(PanelInfo(title="t", subtitle="s", status="blocked by a wall " * 30, log=lines,
                            log_serial=40))
    assert status.box.scroll_bar is not None and not cut_rows(status.box)
    assert log.folded or not cut_rows(log.box)


@pytest.mark.parametrize("name", ["demo", "mage_knight"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_in_the_window_the_log_and_line_of_sight_show_whole_lines(size: tuple[int, int], name: str) -> None:
    window = open_app(name, size)
    for n in range(30):
        window.session.history.note(f"move Ember ({n},1) -> ({n},2), a longer line to wrap it")
    first = select(window, min(window.board.figures.values(), key=lambda f: f.id).label)
    post_key(window, pygame.K_r)  # no target: the refusal is a long message in the status box
    status, log = window.panel.section(StatusSection), window.panel.section(LogSection)
    assert window.presenter.selected == first and status.box.visible
    assert not cut_rows(status.box)
    assert log.folded or not cut_rows(log.box)


def post_key(window: App, code: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0))
    window.frame()


def test_a_long_finding_wraps_onto_rows_of_its_own_and_the_folded_log_heading_is_a_preview() -> None:
    pygame.display.init()
    pygame.display.set_mode((400, 300))
    manager = pygame_gui.UIManager((400, 300))
    log, findings = LogSection(), FindingsSection()
    panel = SidePanel(manager, pygame.Rect(0, 0, 320, 150), [StatusSection(), findings, log])
    long_line = "attack Ember on Snarl: hit, Snarl loses 2 life (dice 5, 6), seed 9288693"
    finding = Finding("wall-diagonal", Severity.ERROR, "wall segment (9,0)-(10,2) is diagonal; "
                      "that part is ignored", 16, None)
    panel.refresh(PanelInfo(log=[long_line], log_serial=1, findings=[finding]))
    assert log.folded and log.label.text.startswith("Log: attack Ember") and log.label.text.endswith("…")
    assert log.label.font.size(log.label.text)[0] <= log.label.rect.w  # Shift+L shows it whole
    rows = [item["text"] for item in findings.list.item_list]
    assert len(rows) >= 2 and rows[0].startswith("1. error object 16: wall")
    assert not any(row.rstrip().endswith("…") for row in rows)  # never cut: wrapped
    assert " ".join(row.strip() for row in rows) == FindingsSection.item_text(1, finding)
    shown = [item for item in findings.list.item_list if item["button_element"] is not None]
    assert shown  # the rows on view (a scrolled list makes buttons for those only)
    for item in shown:
        button = item["button_element"]
        assert button.font.size(item["text"].rstrip())[0] <= button.rect.w
    assert len(findings.rows_of(1)) == len(rows)
    full = FindingsSection.full_text(finding)
    assert full.endswith("diagonal; that part is ignored")


@pytest.mark.parametrize("size", [(800, 500), (960, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_window_smaller_than_the_reference_cuts_no_panel_text(size: tuple[int, int]) -> None:
    window = open_app("demo", size)
    window.frame()
    assert window.ui_scale == (0.75 if size == (800, 500) else 1.0)
    map_section, status = window.panel.section(MapSection), window.panel.section(StatusSection)
    attack = window.panel.section(AttackSection)
    for box in (map_section.box, window.panel.section(FigureSection).box, status.box, attack.verdict_box):
        assert text_fits(box), box.html_text
    select(window, "Ember")
    window.frame()
    assert text_fits(window.panel.section(FigureSection).box)


@pytest.mark.parametrize("size", [(1000, 650), (1280, 800), (2400, 1400)])
def test_every_pixel_is_repainted_each_frame(size: tuple[int, int]) -> None:
    # a 2-pixel seam between the board and the panel kept what an overlay (the help, the dice) drew
    # there for frames: paint the screen magenta, run one frame, no magenta may be left
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    demo = Path(__file__).resolve().parent.parent / "maps" / "demo.tmx"
    app = App(Session.open(demo, autosave=False), screen=screen, watch=False)
    pygame.event.clear()
    clean = pygame.surfarray.array3d(screen)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # until the screen is still (the map check runs in the background)
        time.sleep(0.01)
        app.frame()
        again = pygame.surfarray.array3d(screen)
        if np.array_equal(again, clean):
            break
        clean = again
    else:
        raise AssertionError("the screen never settled")
    screen.fill((255, 0, 255))
    app.frame()
    left = (pygame.surfarray.array3d(screen) != clean).any(axis=2)
    xs, ys = np.nonzero(left)
    assert not left.any(), f"{left.sum()} pixels not repainted, e.g. x {xs[:3]}, y {ys[:3]}"
