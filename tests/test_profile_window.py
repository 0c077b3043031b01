"""The window's line-of-sight rule (game/ui/rule_panel.py): the lesson window reads a lesson
map's ``los_rule``, ``K`` switches the rule, ``J`` shows the parameters (flipped by key and by
click, [INTERP] marked), ``X`` shades where two rules disagree from the ray's start, and ``F``
follows the rule. Real window (SDL dummy driver), real posted events, real lesson maps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
from support.window import Clock, centre, click, key

from game.core import los, profile_los
from game.core.profiles import PRESETS, parse_rule
from game.play.session import Session
from game.ui.app import App

RULES = Path(__file__).resolve().parent.parent / "maps" / "lessons" / "rules"
P5 = RULES / "R05.tmx"  # 3×3, crates on (1,1), (0,0) -> (2,2): dnd5e clear, arcadia blocked



def lesson_window(screen: pygame.Surface, path: Path = P5) -> App:
    app = App(None, screen=screen, lessons=[path], start_in_lessons=True, time_source=Clock())
    pygame.event.clear()
    app.frame()
    return app


def test_the_lesson_window_uses_the_lesson_maps_los_rule(screen: pygame.Surface) -> None:
    app = lesson_window(screen)
    assert app.presenter.lesson_mode and app.board is not None
    assert app.presenter.rules.rule(app.board, app.presenter.lesson_mode).spec() == "dnd5e"
    click(app, centre(app, (0, 0)))  # the hero on (0,0): the ray's start
    app.presenter.fov_on = True
    mask = app.presenter.field_of_view()
    assert mask is not None and mask[2, 2]  # dnd5e sees round the crates' corner
    assert not los.visible_from(app.board, (0, 0))[2, 2]  # arcadia does not


def test_k_switches_the_rule_and_shift_k_returns_to_the_maps(screen: pygame.Surface) -> None:
    app = lesson_window(screen)
    board = app.board
    assert board is not None
    click(app, centre(app, (0, 0)))
    app.presenter.fov_on = True
    seen = []
    for _ in range(len(PRESETS)):
        key(app, pygame.K_k)
        rule = app.presenter.rules.rule(board, True)
        mask = app.presenter.field_of_view()
        assert mask is not None
        assert np.array_equal(mask, profile_los.visible_from(board, (0, 0), rule, app.presenter.ray_start()[1]))  # type: ignore[index]
        seen.append(rule.name)
    assert sorted(seen) == sorted(PRESETS)  # K cycles through every preset
    assert app.presenter.notice is not None and "Line-of-sight rule" in app.presenter.notice[0]
    key(app, pygame.K_k, pygame.KMOD_LSHIFT)
    assert app.presenter.rules.rule(board, True).spec() == "dnd5e"


def test_the_panel_lists_every_parameter_and_flips_by_key_and_click(screen: pygame.Surface) -> None:
    app = lesson_window(screen)
    board = app.board
    assert board is not None
    key(app, pygame.K_j)
    assert app.presenter.rules.shown
    rows = dict((parameter, rect) for rect, parameter in app.rule_panel.rows)
    assert list(rows) == ["from", "to", "sight", "figures", "corner_touch", "along_wall", "along_square",
                          "boundary", "cover"]
    # dnd5e's along_wall is our reading of the DMG: the panel marks it
    assert app.presenter.rules.rule(board, True).interp("along_wall")
    before = app.screen.copy()
    click(app, rows["along_wall"].center)
    assert app.presenter.rules.rule(board, True).spec() == "dnd5e,along_wall=blocks"
    assert app.presenter.rules.rule(board, True).interp("along_wall") is None  # changed: no longer the preset's reading
    # keys: U moves down to along_square, H flips it
    key(app, pygame.K_u)
    key(app, pygame.K_h)
    assert app.presenter.rules.rule(board, True).spec() == "dnd5e,along_wall=blocks,along_square=blocks"
    assert not np.array_equal(pygame.surfarray.array3d(before), pygame.surfarray.array3d(app.screen))
    key(app, pygame.K_j, pygame.KMOD_LSHIFT)
    assert not app.presenter.rules.shown and app.rule_panel.rows == []


def test_compare_mode_shades_the_squares_where_two_rules_disagree(screen: pygame.Surface) -> None:
    app = lesson_window(screen)
    board = app.board
    assert board is not None
    click(app, centre(app, (0, 0)))
    app.frame()
    plain = app.screen.get_at(centre(app, (2, 2)))
    key(app, pygame.K_x)
    assert app.presenter.rules.comparing
    first, second = app.presenter.rules.disagreement(board, (0, 0), app.presenter.ray_start()[1], True)  # type: ignore[index]
    assert first[2, 2] and not second.any()  # dnd5e sees (2,2), arcadia does not
    want = profile_los.visible_from(board, (0, 0), parse_rule("dnd5e"), None) & ~los.visible_from(board, (0, 0))
    assert np.array_equal(first, want)
    app.frame()
    shaded = app.screen.get_at(centre(app, (2, 2)))
    assert shaded != plain and shaded.b > plain.b  # the blue tint of "only under the rule"
    same = app.screen.get_at(centre(app, (1, 0)))  # seen under both: not shaded
    key(app, pygame.K_x)
    app.frame()
    assert app.screen.get_at(centre(app, (1, 0))) == same
    assert app.screen.get_at(centre(app, (2, 2))) == plain


def test_play_rule_option_reaches_the_window(tmp_path: Path, screen: pygame.Surface) -> None:
    session = Session.open(P5, fresh=True)
    app = App(session, screen=screen, rule=parse_rule("any-point"), time_source=Clock())
    pygame.event.clear()
    app.frame()
    assert app.board is not None
    assert app.presenter.rules.rule(app.board).spec() == "any-point"
    # the attack rules keep the map's ruleset: the session is untouched by the sight rule
    assert app.board.ruleset == "arcadia"


def test_the_rule_badge_leaves_the_column_numbers_alone(screen: pygame.Surface) -> None:
    # the badge once covered the column numbers along the board's top: it now stands at the bottom
    # of the board area, and with arcadia and nothing open it is not drawn at all
    demo = Path(__file__).resolve().parent.parent / "maps" / "demo.tmx"
    app = App(Session.open(demo, autosave=False), screen=screen, watch=False, time_source=Clock())
    pygame.event.clear()
    app.frame()
    assert app.board is not None
    vx, vy, vw, vh = app.view.viewport
    top = pygame.Rect(vx, vy, vw, 30)
    bottom = pygame.Rect(vx, vy + vh - 30, vw, 30)

    def strips() -> tuple[bytes, bytes]:
        app.frame()
        return (pygame.image.tobytes(screen.subsurface(top), "RGB"),
                pygame.image.tobytes(screen.subsurface(bottom), "RGB"))

    plain_top, plain_bottom = strips()
    key(app, pygame.K_k)  # corners: the badge shows, in a strip under the board area
    assert app.presenter.rules.rule(app.board).spec() == "corners"
    ruled_top, ruled_bottom = strips()
    assert ruled_bottom != plain_bottom
    x, y, w, h = app.view.viewport
    assert y == vy and h < vh  # the board is laid out above the strip: the strip covers none of it
    assert app.view.pixel(0, 0)[1] > y  # the column numbers stand in the board area, above the first row
    key(app, pygame.K_k, pygame.KMOD_SHIFT)  # back to the map's arcadia: no badge
    assert strips() == (plain_top, plain_bottom)


def test_the_attack_panel_says_when_the_drawn_rule_is_not_the_attacks(screen: pygame.Surface) -> None:
    # the rule lesson R05 as a map in play: its los_rule is dnd5e, the rule its attacks are judged by
    app = App(Session.open(P5, autosave=False), screen=screen, watch=False, time_source=Clock())
    pygame.event.clear()
    app.frame()
    board, section = app.board, app.attack_section
    assert board is not None and board.properties["los_rule"] == "dnd5e"
    click(app, centre(app, (0, 0)))  # the Archer attacks ...
    click(app, centre(app, (2, 2)), button=3)  # ... the Goblin
    app.frame()
    assert app.presenter.attack.targets == [2] and section.shown["rule_notice"] == ""
    assert "Ray drawn under" not in section.verdict_box.html_text  # type: ignore[union-attr]

    assert app.ui_scale == 1.0  # the panel is drawn straight onto the screen

    def amber() -> int:  # the notice's pixels in the verdict box
        area = pygame.surfarray.array3d(app.screen.subsurface(section.verdict_box.rect))  # type: ignore[union-attr]
        return int(((abs(area[..., 0].astype(int) - 255) < 30) & (abs(area[..., 1].astype(int) - 195) < 30)
                    & (area[..., 2] < 120)).sum())

    plain = amber()
    key(app, pygame.K_k)  # a what-if: the ray under the next rule
    app.frame()
    drawn = app.presenter.rules.rule(board).spec()
    notice = f"Ray drawn under {drawn}; this attack is judged under dnd5e (the map's rule)."
    assert drawn != "dnd5e" and section.shown["rule_notice"] == notice
    assert "Ray drawn under" in section.verdict_box.html_text  # type: ignore[union-attr]
    assert amber() > plain + 50  # drawn on screen, in amber, above the legality sentence
    key(app, pygame.K_k, pygame.KMOD_LSHIFT)  # back to the map's rule: the notice goes
    app.frame()
    assert section.shown["rule_notice"] == "" and "Ray drawn under" not in section.verdict_box.html_text  # type: ignore[union-attr]
