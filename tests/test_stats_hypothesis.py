"""Random stat values in figures of every ruleset never crash anything (issue #15).

Hypothesis writes strings, floats (nan, inf included), huge and negative integers into a figure
property of each bundled map (a real .tmx file, read by the real loader), then runs the real
commands ``check``, ``odds``, ``attack`` and ``render`` in-process with ``SIGHTLINE_DEBUG=1`` (so
an unexpected exception fails the test instead of becoming "internal error"), and draws a real
window frame (SDL dummy) with the attack panel open on that figure. Each answer is at most one
line on stderr and an exit code of 0, 1 or 2.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.cli import main
from game.core.errors import UsageError
from game.designer.lint import check_figure_values
from game.designer.stats import check_figure_stats
from game.play.session import Session
from game.rules.base import AttackRequest
from game.rules.registry import get_ruleset
from game.tiled import load_map

REPO = Path(__file__).resolve().parent.parent

#: map, attacker, target (legal on the map as drawn), the stats written into (attacker or target)
CASES = {
    "demo": ("Ember", "Cinder", ["life", "defense", "wounds", "attack_bonus", "attacks"]),
    "folklore": ("Kiku", "Oni", ["valour", "senses", "hp", "max_hp", "armour", "hit_dice", "weapons"]),
    "conquest": ("Longbowman", "Brute Drone", ["barrage", "volley", "defence", "evasion", "wound_limit",
                                               "resolve", "range", "wounds"]),
    "mage_knight": ("Tovak", "Prowlers", ["armor", "attack", "fame", "elusive_armor", "hand_limit", "level"]),
}
EXTRA = {"mage_knight": ["--phase", "attack", "--play", "5"]}

VALUES = st.one_of(
    st.sampled_from(["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e999", "", "0", "-0", "1.5",
                     "x", "3+", "5+3", "99999999999999999999", "9" * 5000, "Sword:valour:2:melee"]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**30), 10**30),
    st.integers(-3, 80),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12),
)


@pytest.fixture(scope="module")
def maps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("stats")
    (root / "maps").mkdir()
    shutil.copytree(REPO / "maps" / "tiles", root / "maps" / "tiles")
    shutil.copytree(REPO / "assets" / "tiles", root / "assets" / "tiles")
    return root / "maps"


def write_stat(source: Path, target: Path, figure: str, key: str, value: object) -> None:
    """The map with ``figure``'s property ``key`` set to ``value`` (typed as Tiled writes it)."""
    tree = ET.parse(source)
    obj = next(o for o in tree.iter("object") if o.get("name") == figure)
    props = obj.find("properties")
    if props is None:
        props = ET.SubElement(obj, "properties")
    for prop in list(props):
        if prop.get("name") == key:
            props.remove(prop)
    prop = ET.SubElement(props, "property", name=key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        prop.set("value", str(value))
    else:
        prop.set("type", "int" if isinstance(value, int) else "float")
        prop.set("value", repr(value) if isinstance(value, float) else str(value))
    tree.write(target, encoding="utf-8", xml_declaration=True)


def run(argv: list[str]) -> tuple[int, str]:
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(argv)
    return code, err.getvalue()


def one_line(code: int, err: str, what: str) -> None:
    assert code in (0, 1, 2), (what, code, err)
    assert err.count("\n") <= 1 and "Traceback" not in err and "internal error" not in err, (what, err)
    assert len(err) < 2000, (what, len(err))


@pytest.fixture(autouse=True)
def debug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIGHTLINE_DEBUG", "1")  # an unexpected exception raises, failing the test


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_stats_never_crash_a_command(name: str, maps: Path, data: st.DataObject) -> None:
    attacker, target, keys = CASES[name]
    who = data.draw(st.sampled_from([attacker, target]), label="figure")
    key = data.draw(st.sampled_from(keys), label="key")
    value = data.draw(VALUES, label="value")
    path = maps / f"{name}_stat.tmx"
    write_stat(REPO / "maps" / f"{name}.tmx", path, who, key, value)
    extra = EXTRA.get(name, [])
    code, err = run(["check", str(path)])
    assert code in (0, 1, 2) and "Traceback" not in err and "internal error" not in err, err
    for argv in (["odds", str(path), attacker, target, *extra],
                 ["odds", str(path), attacker, target, "--json", *extra],
                 ["attack", str(path), attacker, target, "--seed", "3", *extra],
                 ["render", str(path), "-o", str(maps / "out.png")]):
        one_line(*run(argv), argv[0])
    # the linter and the rules give one answer: a nonsense stat refuses the attack with its words
    board = load_map(path).board
    rules = get_ruleset(board.ruleset)
    a, t = board.find_figure(attacker).id, board.find_figure(target).id
    findings = [f for f in check_figure_stats(board) if f.object_id in (a, t)]
    if findings:  # the first nonsense of the attacker (else the target) is the refusal's reason
        first = min(findings, key=lambda f: (f.object_id != a, findings.index(f)))
        words = first.message.split(": ", 1)[1].rstrip(".")
        try:  # a value check rejects is refused (one UsageError line), nonsense makes it illegal
            verdict = rules.check(AttackRequest(board, a, [t], None, {"phase": "attack", "play": "5"}))
        except UsageError as exc:  # the same sentence as check's property-value finding
            values = [f.message for f in check_figure_values(board) if f.object_id in (a, t)]
            assert any(m.split(": ", 1)[1].rstrip(".") in str(exc) for m in values), (str(exc), values)
        else:
            assert not verdict.legal and words in verdict.reason


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_stats_never_crash_the_window_frame(name: str, maps: Path, data: st.DataObject) -> None:
    from game.ui.app import App

    attacker, target, keys = CASES[name]
    key = data.draw(st.sampled_from(keys), label="key")
    value = data.draw(VALUES, label="value")
    path = maps / f"{name}_win.tmx"
    write_stat(REPO / "maps" / f"{name}.tmx", path, data.draw(st.sampled_from([attacker, target])), key, value)
    for leftover in path.parent.glob(f"{path.name}.*"):
        leftover.unlink()  # no play state from an earlier example
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1280, 800))
    try:
        session = Session.open(path)
    except Exception as exc:  # noqa: BLE001 - the window's own refusal is a one-line SightlineError
        from game.core.errors import SightlineError

        assert isinstance(exc, SightlineError) and "\n" not in str(exc)
        return
    window = App(session, screen=screen, time_source=lambda: 100.0)
    window.frame()
    session.selected = session.board.find_figure(attacker).id
    window.presenter.attack.set_target(session.board.find_figure(target).id)
    window.frame()
    window.frame()


def test_environment_is_headless() -> None:
    assert os.environ.get("SDL_VIDEODRIVER") == "dummy"


@pytest.mark.parametrize(("name", "who", "key"), [("folklore", "Kiku", "weapons"), ("mage_knight", "Tovak", "attack"),
                                                  ("mage_knight", "Prowlers", "attack")])
def test_a_huge_stat_is_named_in_a_short_line(name: str, who: str, key: str, maps: Path) -> None:
    """A 5,000-character stat is refused in one line that quotes the start of it, not all of it
    (once found by the hypothesis test above: a 5,000-digit weapon made a 5,200-character line)."""
    attacker, target, _ = CASES[name]
    path = maps / f"{name}_huge.tmx"
    write_stat(REPO / "maps" / f"{name}.tmx", path, who, key, "9" * 5000)
    for argv in (["odds", str(path), attacker, target, *EXTRA.get(name, [])],
                 ["attack", str(path), attacker, target, "--seed", "3", *EXTRA.get(name, [])]):
        code, err = run(argv)
        assert code == 2 and "…" in err, err[:300]
        one_line(code, err, argv[0])
        assert len(err) < 400, len(err)
