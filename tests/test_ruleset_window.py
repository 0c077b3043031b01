"""A ruleset file in the window (issue #25, part 2): the bundled map ``skirmish.tmx`` plays its
``skirmish.toml`` with real posted pygame events under the dummy driver — the attack panel and its
exact chart, the dice tray drawing and tumbling the file's own dice, the roll log, undo and
autosave (which records the file), and the live reload when the ruleset file is saved."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pygame
import pytest
from support.attack_window import Clock, centre_of, click, key
from support.ruleset_files import BRUTE, MAPS, REN, skirmish

from game.core.dice import DieRoll
from game.play.attack import AttackController
from game.play.ruleset_file import read_ruleset_file
from game.play.savestate import state_path
from game.play.session import Session
from game.rules.base import AttackRequest, DieLook, Resolution, Step
from game.rules.registry import get_ruleset
from game.ui.app import App
from game.ui.dice_tray import DiceTray, draw_symbols
from game.ui.watch import POLL_INTERVAL

SEED = 24  # the dice stream's master seed: Crossbow Ren's first Shot rolls a crit


def open_window(path: Path, clock: Clock, **kwargs: object) -> App:
    window = App(Session.open(path, **kwargs), screen=pygame.display.get_surface(),  # type: ignore[arg-type]
                 time_source=clock)
    window.presenter.attack.seed_source = lambda: SEED
    pygame.event.clear()
    window.frame()
    return window


def frames(window: App, clock: Clock, n: int) -> None:
    for _ in range(n):
        clock.now += 1 / 60
        window.frame()


def touch_later(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))


def test_the_file_game_plays_in_the_window_with_its_own_dice(
    tmp_path: Path, screen: pygame.Surface
) -> None:
    clock = Clock()
    path = skirmish(tmp_path)
    window = open_window(path, clock)
    rules = get_ruleset(window.board.ruleset)
    assert rules.name == "skirmish" and window.presenter.attack.ruleset is rules
    click(window, centre_of(window, REN))
    click(window, centre_of(window, BRUTE), button=3)
    window.frame()
    section = window.attack_section
    assert window.presenter.attack.targets == [BRUTE]
    assert section.shown["verdict"] == "Legal: Crossbow Ren can attack Brute with Shot (ranged)."
    exact = rules.odds(AttackRequest(window.board, REN, [BRUTE], "Shot"))
    assert window.presenter.attack.odds() == exact and section.shown["chart"] == "wounds"
    key(window, pygame.K_r)  # roll: computed first, then the tray reveals it
    tray = window.dice_tray
    result = window.presenter.attack.last
    assert result is not None and tray.busy
    assert set(tray.looks) == {"strike", "ward", "d6"}
    assert tray.looks["strike"] == rules.die_look("strike")
    assert tray.visible_faces() == [None] * len(result.rolls())  # nothing spoilt while it tumbles
    frames(window, clock, 6)
    for die in tray.dice:  # a tumbling die flicks through its own die's faces
        assert tray.shown_face(die) in tray.looks[die.roll.die].faces
    assert [r.face for r in result.rolls()][:4] == ["hit+hit", "hit+crit", "hit+hit", "blank"]
    assert result.rolls()[3].reason == "explosion of die 2"
    key(window, pygame.K_SPACE)  # skip: every die settles, the wounds land
    frames(window, clock, 2)
    assert tray.visible_faces() == [r.face for r in result.rolls()]
    assert window.board.figure(BRUTE).stats["wounds"] == 3
    entry = window.session.roll_log[-1]
    assert entry["ruleset"] == "skirmish" and entry["summary"] == "Brute: 3 wounds (wounds 0 → 3)."
    assert entry["faces"]["strike"] == ["hit+hit", "hit+crit", "hit+hit", "blank"]
    saved = json.loads(state_path(path).read_text(encoding="utf-8"))
    assert saved["ruleset_file"] == "skirmish.toml"
    assert saved["figures"][str(BRUTE)]["stats"]["wounds"] == 3
    key(window, pygame.K_z, pygame.KMOD_LCTRL)  # undo the whole attack
    window.frame()
    assert window.board.figure(BRUTE).stats.get("wounds", 0) == 0 and window.session.roll_log == []
    key(window, pygame.K_y, pygame.KMOD_LCTRL)
    window.frame()
    assert window.board.figure(BRUTE).stats["wounds"] == 3 and len(window.session.roll_log) == 1


def test_the_tray_draws_every_symbol_of_a_face() -> None:
    pygame.font.init()
    tray = DiceTray()
    ink = (240, 240, 240)

    def inked(symbols: tuple[str, ...]) -> tuple[int, int]:
        """Ink pixels in the left and the right half of a 30-pixel face."""
        face = pygame.Surface((30, 30))
        face.fill((0, 0, 0))
        draw_symbols(face, symbols, ink, tray.font)
        left = sum(1 for x in range(15) for y in range(30) if face.get_at((x, y))[:3] != (0, 0, 0))
        right = sum(1 for x in range(15, 30) for y in range(30) if face.get_at((x, y))[:3] != (0, 0, 0))
        return left, right

    assert inked(("blank",)) == (0, 0)
    left, right = inked(("hit", "hit"))
    assert left > 20 and right > 20 and abs(left - right) < left // 4  # two bursts side by side
    assert all(inked((name,))[0] > 10 for name in ("hit", "crit", "shield", "sword", "skull", "heart",
                                                     "star", "fire"))  # an icon, or its letters
    four = pygame.Surface((40, 40))
    four.fill((0, 0, 0))
    draw_symbols(four, ("hit", "hit", "shield", "crit", "fire", "ice"), ink, tray.font)
    quarters = [sum(1 for x in range(qx, qx + 20) for y in range(qy, qy + 20)
                    if four.get_at((x, y))[:3] != (0, 0, 0)) for qy in (0, 20) for qx in (0, 20)]
    assert all(q > 5 for q in quarters)  # three symbols and "+3"


def test_the_tray_asks_the_rules_how_each_die_looks() -> None:
    rules = read_ruleset_file(MAPS / "skirmish.toml")
    tray = DiceTray(rules=lambda: rules)
    resolution = Resolution(True, "ok", (
        Step("roll", "3 strike dice.", (DieRoll("strike", "strike", "hit+crit"),
                                         DieRoll("strike", "strike", "blank"))),
        Step("roll", "1 ward die.", (DieRoll("ward", "ward", "shield+shield"),)),
    ))
    tray.start(resolution)
    assert tray.looks == {"strike": rules.die_look("strike"), "ward": rules.die_look("ward")}
    assert tray.looks["ward"].symbols_of("shield+shield") == ("shield", "shield")
    for t in (0.05, 0.2, 0.35):
        tray.advance(0.05 if t > 0.05 else t)
        assert all(tray.shown_face(d) in tray.looks[d.roll.die].faces for d in tray.dice)
    tray.skip()
    assert [tray.shown_face(d) for d in tray.dice] == ["hit+crit", "blank", "shield+shield"]
    plain = DiceTray()  # no rules: the tray tumbles numbers, as before
    plain.start(resolution)
    assert plain.looks == {} and plain.shown_face(plain.dice[0]) in (1, 2, 3, 4, 5, 6)
    assert DieLook("d", (1, 2), ((), ())).symbols_of(3) is None


def test_saving_the_ruleset_file_reloads_the_rules(tmp_path: Path, screen: pygame.Surface) -> None:
    clock = Clock()
    path = skirmish(tmp_path)
    toml = tmp_path / "maps" / "skirmish.toml"
    window = open_window(path, clock)
    assert toml.resolve() in window.session.dependencies
    good = toml.read_text(encoding="utf-8")
    toml.write_text(good.replace('title = "Lantern Skirmish"', 'title = "Lantern Skirmish II"'),
                    encoding="utf-8")
    touch_later(toml)
    clock.now += POLL_INTERVAL + 0.01
    window.frame()
    assert window.session.reload_error is None
    assert get_ruleset(window.board.ruleset).title == "Lantern Skirmish II"
    assert window.presenter.attack.ruleset is not None and window.presenter.attack.ruleset.title == "Lantern Skirmish II"
    # a broken save: the last good rules stay, the banner names the file and the line
    toml.write_text(good.replace('step = "cancel"', 'step = "cancle"'), encoding="utf-8")
    touch_later(toml)
    clock.now += POLL_INTERVAL + 0.01
    window.frame()
    error = window.session.reload_error
    assert error is not None and "skirmish.toml:63: step 3 has an unknown kind 'cancle'" in error
    assert get_ruleset(window.board.ruleset).title == "Lantern Skirmish II"
    status, kind = window.last_frame.status_line
    assert kind == "error" and "skirmish.toml:63" in status
    toml.write_text(good, encoding="utf-8")
    touch_later(toml)
    clock.now += POLL_INTERVAL + 0.01
    window.frame()
    assert window.session.reload_error is None
    assert get_ruleset(window.board.ruleset).title == "Lantern Skirmish"


def _attack_once(session: Session) -> None:
    controller = AttackController(lambda: session, seed_source=lambda: SEED)
    session.selected = REN
    controller.set_target(BRUTE)
    assert controller.roll() is not None


def test_the_play_state_records_the_file_and_says_when_it_cannot_be_read_again(tmp_path: Path) -> None:
    path = skirmish(tmp_path, "conquest")  # the map's own game: Conquest
    variant = tmp_path / "variant.toml"  # outside the map's folder: recorded by its full path
    variant.write_text((MAPS / "skirmish.toml").read_text(encoding="utf-8").replace(
        'title = "Lantern Skirmish"', 'title = "Variant"'), encoding="utf-8")
    session = Session.open(path, ruleset_file=variant)
    assert get_ruleset(session.board.ruleset).title == "Variant"
    _attack_once(session)
    saved = json.loads(state_path(path).read_text(encoding="utf-8"))
    assert saved["ruleset_file"] == variant.resolve().as_posix()
    wounds = session.board.figure(BRUTE).stats["wounds"]
    # reopened without the option: the saved state's file plays, and the log says so
    again = Session.open(path)
    assert get_ruleset(again.board.ruleset).title == "Variant"
    assert again.board.figure(BRUTE).stats["wounds"] == wounds
    assert any("playing the ruleset file " + variant.resolve().as_posix() in m for m in again.messages)
    # the file broken, then gone: said, and the map's own ruleset plays
    variant.write_text('name = "variant"\n[dice]\nd6 = "d0"\n', encoding="utf-8")
    broken = Session.open(path)
    assert broken.board.ruleset == "conquest"
    assert any("which cannot be used now" in m and "variant.toml:3: die 'd6'" in m for m in broken.messages)
    variant.unlink()
    gone = Session.open(path)
    assert gone.board.ruleset == "conquest"
    assert any("no such ruleset file" in m and "playing the map's own ruleset" in m for m in gone.messages)
    assert any("no such ruleset file" in line for line in gone.history.log)
    assert Session.open(path, fresh=True).messages == []


def test_the_maps_own_file_is_recorded_relative_and_restored_without_a_word(tmp_path: Path) -> None:
    path = skirmish(tmp_path)
    session = Session.open(path)
    _attack_once(session)
    assert json.loads(state_path(path).read_text(encoding="utf-8"))["ruleset_file"] == "skirmish.toml"
    again = Session.open(path)
    assert get_ruleset(again.board.ruleset).name == "skirmish"
    assert not any("ruleset file" in m for m in again.messages)
    assert again.ruleset_choice is None  # the map's own: a reload follows the map's property


@pytest.mark.parametrize("size", [(1000, 650), (1280, 800), (2400, 1400)])
def test_the_tray_fits_the_file_dice_at_every_window_size(tmp_path: Path, size: tuple[int, int]) -> None:
    pygame.display.init()
    pygame.font.init()
    screen_ = pygame.display.set_mode(size)
    clock = Clock()
    window = App(Session.open(skirmish(tmp_path), fresh=True), screen=screen_, time_source=clock, size=size)
    window.presenter.attack.seed_source = lambda: SEED
    window.frame()
    window.presenter.select(REN)
    window.presenter.attack.set_target(BRUTE)
    window.frame()
    key(window, pygame.K_r)
    frames(window, clock, 400)
    assert window.dice_tray.done
    rect = window.dice_tray.tray_rect(pygame.Rect(window.view.viewport))
    assert pygame.Rect(window.view.viewport).contains(rect)
    assert window.dice_tray.shown_rows[-1].startswith("Brute: 3 wounds")


@pytest.mark.parametrize("value", ["", 3, "x" * 501, "a\0b", ["skirmish.toml"]])
def test_a_play_state_with_a_bad_ruleset_file_entry_is_set_aside(tmp_path: Path, value: object) -> None:
    path = skirmish(tmp_path)
    state_path(path).write_text(json.dumps({"format": "sightline-play-state", "version": 1,
                                            "ruleset_file": value}), encoding="utf-8")
    session = Session.open(path)
    assert get_ruleset(session.board.ruleset).name == "skirmish"
    assert any("expected a ruleset file's name at ruleset_file" in m and "kept as" in m for m in session.messages)
