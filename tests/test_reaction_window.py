"""Reactions and "Not applied" lines in the real window, with real posted events under the dummy
video driver: the attack lands, the Payback is offered as the next step (Roll named after it),
R rolls it with its own dice and its own undo step, Skip drops it; the Payback's walk moves the
monster; a rule that is not modelled shows its line under the verdict."""

from __future__ import annotations

from pathlib import Path

import pygame
from support.attack_window import (
    CINDER,
    EMBER,
    Clock,
    centre_of,
    click,
    key,
    open_window,
    run_until_landed,
)

from game.ui.attack_panel import SKIP_REACTION

LARK, MOSSBACK = 37, 40


def settle(window, clock: Clock) -> None:  # noqa: ANN001 - an App
    """Let the tray land and finish its reveal (R on a running tray finishes it instead)."""
    run_until_landed(window, clock)
    for _ in range(400):
        if not window.presenter.attack.tray.busy:
            break
        clock.now += 1 / 60
        window.frame()
    window.frame()


def attack(window, attacker: int, target: int, clock: Clock) -> None:  # noqa: ANN001 - an App
    """Select, right-click the target, R, and let the tray land and finish."""
    click(window, centre_of(window, attacker))
    click(window, centre_of(window, target), button=3)
    window.frame()
    key(window, pygame.K_r)
    settle(window, clock)


def offered(window) -> str:  # noqa: ANN001 - an App
    section = window.attack_section
    assert section.roll_button is not None
    return f"{section.shown['verdict']} | {section.roll_button.text}"


def survive_seed(window, attacker: int, target: int, clock: Clock) -> None:  # noqa: ANN001
    """Roll until the target survives the attack (each try undone), so a Payback follows."""
    for _ in range(20):
        attack(window, attacker, target, clock)
        if window.presenter.attack.next_reaction() is not None:
            return
        key(window, pygame.K_z, pygame.KMOD_LCTRL)
        key(window, pygame.K_d)  # fresh dice for the next try
    raise AssertionError("the target never survived")


def test_the_payback_is_offered_rolled_and_undone_on_its_own(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    window = open_window(tmp_path, "demo", clock)
    survive_seed(window, EMBER, CINDER, clock)
    assert offered(window) == ("Next step: Payback: Cinder attacks Ember with Fire Spit from where it stands."
                               " | Payback (R)")
    assert [a for _, a in window.attack_section.action_buttons] == [SKIP_REACTION]
    assert window.attack_section.shown["chart"] == "wounds"  # the Payback's own exact odds
    log_before = len(window.session.roll_log)
    cinder_wounds = window.board.figure(CINDER).stats.get("wounds")
    key(window, pygame.K_r)  # R rolls the reaction offered
    reaction = window.presenter.attack.last
    assert reaction is not None and reaction.outcome["reaction"] == "Payback"
    settle(window, clock)
    assert len(window.session.roll_log) == log_before + 1
    taken = next(c for c in reaction.changes if c.figure_id == EMBER).stats["wounds"]
    assert window.board.figure(EMBER).stats.get("wounds") == taken
    assert window.presenter.attack.next_reaction() is None
    assert window.attack_section.roll_button is not None
    assert window.attack_section.roll_button.text == "Roll (R)"
    key(window, pygame.K_z, pygame.KMOD_LCTRL)  # one undo takes back the Payback alone
    assert window.board.figure(EMBER).stats.get("wounds") is None
    assert window.board.figure(CINDER).stats.get("wounds") == cinder_wounds
    assert len(window.session.roll_log) == log_before


def test_skip_drops_the_reaction(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    window = open_window(tmp_path, "demo", clock)
    survive_seed(window, EMBER, CINDER, clock)
    (button, action), = window.attack_section.action_buttons
    assert action == SKIP_REACTION and button.text == "Skip"
    click(window, button.rect.center)
    window.frame()
    assert window.presenter.attack.next_reaction() is None
    assert not window.attack_section.shown["verdict"].startswith("Next step")


def test_the_payback_walk_moves_the_monster(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    window = open_window(tmp_path, "demo", clock)
    survive_seed(window, LARK, MOSSBACK, clock)
    assert offered(window).startswith("Next step: Payback: Mossback walks (9,12) → (10,12) → (11,12)")
    key(window, pygame.K_r)
    settle(window, clock)
    assert window.board.figure(MOSSBACK).square == (11, 12)
    key(window, pygame.K_z, pygame.KMOD_LCTRL)
    assert window.board.figure(MOSSBACK).square == (9, 12)


def test_not_applied_lines_show_under_the_verdict(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    window = open_window(tmp_path, "demo", clock)
    window.board.update_figure(CINDER, huge=True)
    click(window, centre_of(window, EMBER))
    click(window, centre_of(window, CINDER), button=3)
    window.frame()
    lines = window.attack_section.shown["verdict"].split("\n")
    assert lines[0] == "Not applied: Cinder is Huge."  # first, in sight at every window size
    assert lines[1].startswith("Legal: ")
    assert window.presenter.attack.not_applied() == [
        "Not applied: Cinder is Huge: it fills a Space alone and counts as two characters, which "
        "Full and Blocked Spaces do not count."]
