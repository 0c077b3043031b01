"""Issue #27 items 1-6, in the real window (dummy driver, real pygame events): the classroom asks
before it answers, a rule's verdict is read in the panel, overlays leave the labels and the
attacker alone, a refused drop is red while held, the window's words, tokens, targets and menus."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest
from support.attack_window import (
    CINDER,
    EMBER,
    SNARL,
    Clock,
    click,
    copy_map,
    key,
    open_window,
    post,
    run_until_landed,
)
from support.window import move

from game.core.board import Board, Figure
from game.play.classroom import KEYS_BEFORE, PROMPT
from game.play.lessons import LESSONS_DIR, Lesson, lesson_paths
from game.play.rule_words import exact_lines, readable
from game.play.session import Session
from game.play.wording import heat_legend, log_entries, plain, stat_lines, verdict_words
from game.tiled.reader import load_map
from game.ui import theme
from game.ui.app import App
from game.ui.board_labels import free_area
from game.ui.painter import BoardPainter, Overlay
from game.ui.panel import LIST_CHROME, LIST_ROW, FindingsSection, LogSection
from game.ui.view import View

SIZES = [(1000, 650), (1280, 800), (2400, 1400)]
#: a verdict said as the answer ("so it is clear", "is blocked", "it sees")
ANSWER = re.compile(r"\b(is|are|stays?) (clear|blocked)\b|\bso it\b|\bit sees\b|(?<!= )\bblocks\b", re.I)


def resized(size: tuple[int, int]) -> pygame.Surface:
    pygame.display.init()
    pygame.font.init()
    return pygame.display.set_mode(size)


def classroom(size: tuple[int, int]) -> App:
    window = App(None, screen=resized(size), lessons=lesson_paths(LESSONS_DIR), start_in_lessons=True)
    pygame.event.clear()
    window.frame()
    key(window, pygame.K_F2)
    return window


def open_from_menu(window: App, stem: str) -> None:
    """O, then Down until ``stem`` is chosen, then Enter: the keyboard path to a lesson."""
    key(window, pygame.K_o)
    names = [p.stem for p in window.presenter.tour.paths]
    while names[window.presenter.classroom.menu_index] != stem:
        key(window, pygame.K_DOWN)
    key(window, pygame.K_RETURN)
    assert window.presenter.tour.paths[window.presenter.tour.index].stem == stem


# --- 1. the classroom asks, and answers only with the reveal ---------------------------------


@pytest.mark.parametrize("stem", ["L06", "L29a"])
def test_the_classroom_column_asks_before_the_reveal_and_explains_after(stem: str) -> None:
    window = classroom((1280, 800))
    open_from_menu(window, stem)
    caption = window.presenter.tour.lesson.caption
    before = [text for text, _, _ in window.last_frame.lecture.column]
    card = [text for text, _, _ in window.last_frame.lecture.card]
    assert caption not in before and not any(ANSWER.search(text) for text in before + card), before
    assert PROMPT in before and KEYS_BEFORE in before and card == [PROMPT]
    key(window, pygame.K_y)
    assert not any(ANSWER.search(text) for text, _, _ in window.last_frame.lecture.column)
    key(window, pygame.K_RETURN)
    after = [text for text, _, _ in window.last_frame.lecture.column]
    assert caption in after


def test_every_lesson_has_a_title_and_a_question_that_gives_no_answer() -> None:
    paths = sorted(LESSONS_DIR.rglob("*.tmx"))
    assert len(paths) > 30
    titles = set()
    for path in paths:
        lesson = Lesson.from_board(path, load_map(path).board)
        assert lesson.title and lesson.question, path.name
        assert not ANSWER.search(lesson.question), (path.name, lesson.question)
        assert lesson.question.rstrip().endswith("?"), path.name
        titles.add(lesson.title)
    assert len(titles) == len(paths)  # L29a and L29b are told apart


def test_the_lesson_menu_lists_titles_and_no_two_boards_share_a_heading() -> None:
    window = classroom((1280, 800))
    key(window, pygame.K_o)
    menu = window.last_frame.lecture.menu
    assert "L29a  Two figures, one square" in menu and "L29b  Alone on a square" in menu
    assert [name for name in menu if not re.match(r"^L\d+[a-d]?  \S", name)] == []
    key(window, pygame.K_ESCAPE)
    headings = set()
    for _ in window.presenter.tour.paths:
        headings.add(window.presenter.tour.heading().split(": ", 1)[1])
        key(window, pygame.K_RIGHTBRACKET)
    assert len(headings) == len(window.presenter.tour.paths)


# --- 2. a rule's verdict, read in the panel; exact values on demand --------------------------


def test_a_rules_verdict_is_said_in_the_panel_in_squares_and_rounded(tmp_path: Path, screen: pygame.Surface) -> None:
    window = open_window(tmp_path, "demo", Clock())
    click(window, window.view.square_centre(window.board.figure(EMBER).square))
    key(window, pygame.K_k)  # corners
    move(window, window.view.square_centre(window.board.figure(SNARL).square))
    status = window.last_frame.status
    assert status.startswith("Blocked under corners: all 16 corner-to-corner lines are blocked; the first "), status
    assert "/" not in status and "V(" not in status and "sightline" not in status
    assert window.last_frame.notes == ()  # nothing written over the board
    # the panel's box says it whole (not only the rule's name)
    assert "all 16 corner-to-corner lines" in window.panel.sections[2].text
    # Shift+E: every line with its exact ends, in the large reader
    key(window, pygame.K_e, pygame.KMOD_LSHIFT)
    assert window.reader.kind == "ray"
    title, lines = exact_lines(window.presenter.ray())
    assert title.startswith("Line of sight, exact: (4,3) to (7,4) under corners, blocked")
    assert lines[0] == readable(window.presenter.ray()) and len(lines) == 17
    assert all(re.search(r"exactly \(\d+(/\d+)?, \d+(/\d+)?\) to \(", line) for line in lines[1:])
    key(window, pygame.K_ESCAPE)
    assert window.reader.kind is None


def test_any_point_rounds_its_points_and_says_so() -> None:
    from game.core.profiles import parse_rule
    from game.play.sight_calls import cast_ray

    board = Board.from_ascii(["....", "..#.", "...."], figures=[Figure(1, "A", "red", (0, 0)),
                                                            Figure(2, "B", "blue", (3, 2))])
    ray = cast_ray(board, (0, 0), (3, 2), parse_rule("any-point"), "red")
    words = readable(ray)
    assert words.startswith("Clear under any-point: the line from ") and "/" not in words
    place = r"the (centre of|point (about )?\(\d+(\.\d+)?, \d+(\.\d+)?\) in|[a-z-]+ corner of)"
    assert re.fullmatch(rf"Clear under any-point: the line from {place} \(0,0\) to {place} \(3,2\) is clear\.", words)
    dnd = readable(cast_ray(board, (0, 0), (3, 2), parse_rule("dnd5e"), "red"))
    assert "Cover (dnd5e): half, best corner: the bottom-left corner of (0,0): 2 of 4 lines blocked (to the " \
        "top-left corner of (3,2) passes through square (2,1), blocked terrain; to the top-right corner of (3,2)" in dnd


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_rule_strip_stands_under_the_board_and_covers_none_of_it(tmp_path: Path, size: tuple[int, int]) -> None:
    resized(size)
    window = open_window(tmp_path, "demo", Clock())
    click(window, window.view.square_centre(window.board.figure(EMBER).square))
    for code in (pygame.K_k, pygame.K_j, pygame.K_x):
        key(window, code)
    move(window, window.view.square_centre(window.board.figure(SNARL).square))
    x, y, w, h = window.view.viewport
    assert window.rule_panel.rows and all(rect.top >= y + h for rect, _ in window.rule_panel.rows)
    assert max(rect.bottom for rect, _ in window.rule_panel.rows) <= size[1]
    # the whole board and its labels are in the board area above the strip
    left, top = window.view.pixel(0, 0)
    right, bottom = window.view.pixel(window.board.width, window.board.height)
    assert y <= top and bottom <= y + h
    # a click on a row flips it
    rect, parameter = window.rule_panel.rows[0]
    before = window.presenter.rules.rule(window.board).values()[parameter]
    click(window, rect.center)
    assert window.presenter.rules.rule(window.board).values()[parameter] != before


# --- 3. overlays leave the labels, the board and the attacker alone --------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_banner_stands_above_the_board_and_its_labels(tmp_path: Path, size: tuple[int, int]) -> None:
    path = copy_map(tmp_path, "demo")
    path.with_name("demo.sightline.json").write_text("{ not json", encoding="utf-8")
    window = App(Session.open(path), screen=resized(size), time_source=Clock(), watch=False)
    pygame.event.clear()
    window.frame()
    window.frame()
    banner = window.banner.rect
    assert banner is not None and banner.h > 20
    x, y, _, _ = window.view.viewport
    assert banner.bottom <= y  # the labels are drawn inside the viewport, below the banner
    area = free_area(window.view, window.board, window.ui_scale, True)
    assert area.top > y  # the column labels' strip
    click(window, banner.center)
    window.frame()
    assert window.banner.rect is None and window.view.viewport[1] == 0


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_classroom_card_never_covers_a_coordinate_label(size: tuple[int, int]) -> None:
    window = classroom(size)
    for stem in ("L06", "L29a", "L01"):
        open_from_menu(window, stem)
        for reveal in (False, True):
            if reveal:
                key(window, pygame.K_RETURN)
            card = window.last_callout
            area = free_area(window.view, window.board, window.ui_scale, True)
            assert card is not None and area.contains(card), (stem, reveal, card, area)


def test_the_dice_tray_leaves_the_attacker_and_the_labels_alone(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    window = open_window(tmp_path, "demo", clock)
    click(window, window.view.square_centre(window.board.figure(EMBER).square))
    click(window, window.view.square_centre(window.board.figure(CINDER).square), button=3)
    move(window, (5, 5))  # the hover card away
    window.frame()
    attacker = pygame.Rect(window.view.square_rect(window.board.figure(EMBER).square))
    x, y, w, _ = window.view.viewport
    labels = pygame.Rect(x, y, w, free_area(window.view, window.board, window.ui_scale, True).top - y)
    before = (window.screen.subsurface(attacker).copy(), window.screen.subsurface(labels).copy())
    key(window, pygame.K_r)
    for _ in range(20):
        clock.now += 1 / 30
        window.frame()
    assert window.presenter.attack.tray.active
    after = (window.screen.subsurface(attacker), window.screen.subsurface(labels))
    for old, new in zip(before, after, strict=True):
        assert pygame.image.tobytes(old, "RGB") == pygame.image.tobytes(new, "RGB")


def test_the_map_checks_list_shows_whole_rows_only(tmp_path: Path, screen: pygame.Surface) -> None:
    path = tmp_path / "names.tmx"
    path.write_text(long_names_map(), encoding="utf-8")
    for size in SIZES[:2]:
        window = App(Session.open(path), screen=resized(size), time_source=Clock(), watch=False)
        window.frame()
        findings = window.panel.section(FindingsSection)
        assert findings.list is not None and window.session.findings
        assert (findings.list.rect.h - LIST_CHROME) % LIST_ROW == 0, (size, findings.list.rect)


# --- 4. a refused drop is red while the figure is held, and leaves no copy behind ------------


def test_a_refused_drop_is_outlined_red_while_held_and_no_copy_stays(tmp_path: Path, screen: pygame.Surface) -> None:
    window = open_window(tmp_path, "demo", Clock())
    home = window.board.figure(EMBER).square
    start = window.view.square_centre(home)
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    window.frame()
    void = (0, 0)  # off the board (a void square of the demo map)
    assert not window.board.on_board(void) or not window.board.standable(void)
    for i in range(1, 7):
        pos = window.view.square_centre(void)
        move(window, (start[0] + (pos[0] - start[0]) * i // 6, start[1] + (pos[1] - start[1]) * i // 6),
             buttons=(1, 0, 0))
    assert window.last_frame.refused == void and window.last_frame.dragging is not None
    rect = pygame.Rect(window.view.square_rect(void))
    assert tuple(window.screen.get_at((rect.x + 1, rect.centery)))[:3] == theme.REFUSED_OUTLINE
    # nothing of Ember is drawn on its last legal square: the floor there is as with no figure
    still = window.board.figure(EMBER).square
    cx, cy = window.view.square_centre(still)
    radius = round(window.view.cell * theme.TOKEN_RADIUS)
    side = theme.side_colour(window.board.figure(EMBER).side, window.board.sides())
    assert tuple(window.screen.get_at((cx, cy - radius + 3)))[:3] != side
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=window.view.square_centre(void), button=1))
    window.frame()
    assert window.board.figure(EMBER).square == home  # it returns


# --- 5. the window's words ---------------------------------------------------------------------


def test_the_words_the_audit_found_broken() -> None:
    assert plain("Blocked: closed door on V(7,3) between (6,3) and (7,3).") == \
        "Blocked: closed door between (6,3) and (7,3)."
    assert verdict_words(False, "not Close: Sable is 10 squares away.") == \
        "Illegal: the target is not Close — Sable is 10 squares away."
    assert stat_lines({"wound_limit": 3, "max_hp": 24, "attacks": "Short Bow:ranged:2; Dagger:melee:2"},
                      {"short bow": 2, "dagger": 2}) == \
        ["wound limit 3 · max hp 24", "attacks: Short Bow (ranged, 2 dice); Dagger (melee, 2 dice)"]
    assert heat_legend(65, None, None) == \
        "Coverage: each square is seen from 0 (blue) to 65 (red) other squares · H hides it"
    assert log_entries(["Ember attacks Cinder", "  dice: sword", "move Rook"]) == \
        ["Ember attacks Cinder\n  dice: sword", "move Rook"]


def test_a_rolls_dice_are_logged_after_the_roll_and_read_with_it(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    window = open_window(tmp_path, "demo", clock)
    click(window, window.view.square_centre(window.board.figure(EMBER).square))
    click(window, window.view.square_centre(window.board.figure(CINDER).square), button=3)
    key(window, pygame.K_r)
    run_until_landed(window, clock)
    log = list(window.session.history.log)
    roll = next(i for i, line in enumerate(log) if line.startswith("Ember attacks Cinder"))
    assert log[roll + 1].startswith("  "), log  # its dice come after it
    newest = window.presenter.log_lines()[0]
    assert newest.startswith("1. Ember attacks Cinder") and "\n  " in newest
    # at 1280x800 the panel's Log box shows three whole lines (it showed two)
    log = window.panel.section(LogSection)
    first, pitch = log.line_metrics
    assert not log.folded and (log.box.rect.h - first) // pitch + 1 >= 3, log.box.rect


# --- 6. tokens, targets ------------------------------------------------------------------------


def long_names_map() -> str:
    objects = []
    for oid, (name, side, square) in enumerate([("orc_warrior_1", "monsters", (1, 1)),
                                                ("orc_warrior_2", "monsters", (2, 1)),
                                                ("Kim", "heroes", (3, 3))], 1):
        objects.append(
            f"<object id='{oid}' name='{name}' type='figure' x='{square[0] * 32 + 16}' y='{square[1] * 32 + 16}'>"
            f"<properties><property name='side' value='{side}'/><property name='max_hp' type='int' value='24'/>"
            "</properties><point/></object>")
    return ("<?xml version='1.0' encoding='UTF-8'?>\n<map version='1.10' orientation='orthogonal' "
            "renderorder='right-down' width='5' height='5' tilewidth='32' tileheight='32' infinite='0' "
            f"nextobjectid='100'><objectgroup id='1' name='things'>{''.join(objects)}</objectgroup></map>\n")


@pytest.mark.parametrize("cell", [48, 80, 150])
def test_a_long_name_is_written_readable_or_as_its_initials(cell: int, screen: pygame.Surface) -> None:
    board = Board.from_ascii(["..."], figures=[Figure(1, "orc_warrior_1", "m", (0, 0)), Figure(2, "Kim", "h", (2, 0))])
    surface = pygame.Surface((cell * 3 + 20, cell + 20))
    painter = BoardPainter(None)
    painter.draw(surface, board, View(cell=cell, origin=(10.0, 10.0), viewport=(0, 0, *surface.get_size())),
                 Overlay())
    written = {(key[0], key[1]) for key in painter.tokens._text}  # (text, px) of every label drawn
    orc = [(text, px) for text, px in written if text == "OW1" or "orc" in text]
    assert orc and all(px >= 13 for _, px in orc), written  # never the 7 px name
    assert all(text in ("OW1", "orc_warrior_1") for text, _ in orc)  # whole, or its initials and number
    assert any(text == "Kim" for text, _ in written) == (cell >= theme.NAME_ZOOM)
