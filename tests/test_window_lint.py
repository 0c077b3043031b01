"""The map check in the window: it runs after the first frame, step by step, and its heading tracks
reloads (issue #12 / #11.3). Real maps, real linter, real window under the dummy driver."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest
from support.window import Clock, write_map

from game.play.ruleset_file import load_with_rules
from game.play.session import LintRun, Session, lint_findings
from game.resources import bundled_maps
from game.tiled import load_map
from game.ui.app import App
from game.ui.watch import POLL_INTERVAL

BUNDLED = sorted(bundled_maps().glob("*.tmx")) + sorted((bundled_maps() / "lessons").glob("*.tmx"))[:6]



@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_the_stepwise_map_check_finds_exactly_what_the_linter_finds(path: Path) -> None:
    loaded = load_with_rules(path)
    run = LintRun(loaded)
    steps = 0
    while not run.step():
        steps += 1
        assert run.findings is None and run.done == steps
    assert run.findings == lint_findings(loaded)


def test_a_planted_finding_comes_out_of_the_steps_too(tmp_path: Path) -> None:
    # a door that is in no wall: the linter's door check must run as one of the steps
    path = write_map(tmp_path / "b.tmx", extra=[
        "<object id='60' type='door' x='32' y='128'><polyline points='0,0 32,0'/></object>"])
    loaded = load_map(path)
    expected = lint_findings(loaded)
    assert any(f.code == "door-not-in-wall" for f in expected)
    run = LintRun(loaded)
    while not run.step():
        pass
    assert run.findings == expected


def test_the_first_frame_does_not_wait_for_the_map_check(tmp_path: Path, screen: pygame.Surface) -> None:
    path = write_map(tmp_path / "b.tmx", extra=[
        "<object id='60' type='door' x='32' y='128'><polyline points='0,0 32,0'/></object>"])
    session = Session.open(path, defer_lint=True)
    assert session.lint_progress == (0, 9)
    window = App(session, screen=screen)
    findings = next(s for s in window.panel.sections if type(s).__name__ == "FindingsSection")
    window.frame()  # drawn before any whole-board check ran; one check runs after it
    assert session.lint_progress == (1, 9)
    assert findings.label is not None and "checking, 0 of 9 done" in findings.label.text
    for _ in range(10):
        window.frame()
    assert session.lint_progress is None
    assert session.findings == lint_findings(load_map(path))
    assert findings.label.text == f"Map check: {findings.counts(session.findings)}"


def test_the_map_check_heading_says_when_it_describes_the_last_good_board(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    clock = Clock()
    path = write_map(tmp_path / "b.tmx")
    window = App(Session.open(path), screen=screen, time_source=clock)
    pygame.event.clear()
    window.frame()
    heading = next(s for s in window.panel.sections if type(s).__name__ == "FindingsSection").label
    assert heading is not None and "last good board" not in heading.text
    path.write_text("<map orientation='orthogonal' width='7'", encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
    clock.now += POLL_INTERVAL + 0.01
    window.frame()
    window.frame()
    assert window.session.reload_error is not None
    assert "last good board" in heading.text
