"""The dice tray (game/ui/dice_tray.py): a computed resolution revealed on an injected clock.

Resolutions come from the real rulesets with real dice (scripted faces or pinned seeds); the
tray's clock is stepped by hand, so every assertion is about a known instant.
"""

from __future__ import annotations

import pygame
import pytest

from game.core.board import Board, Figure
from game.core.dice import DieRoll, ScriptedDice, SeededDice
from game.rules.base import AttackRequest, Resolution, Step
from game.rules.registry import get_ruleset
from game.ui.dice_tray import SPEEDS, DiceTray, build_timeline, headline_values

ARCADIA = get_ruleset("arcadia")
MAGE_KNIGHT = get_ruleset("mage_knight")


def arcadia_board() -> Board:
    board = Board.from_ascii(["....."])
    board.place_figure(Figure(1, "Mark", "red", (1, 0), {"attacks": "Dusty Blade:melee:3", "life": 5}))
    board.place_figure(Figure(2, "Goblin", "monsters", (2, 0), {"life": 4, "defense": 2}))
    return board


def crit_resolution() -> Resolution:
    """3 attack dice with one crit (one extra die), 2 defence dice with one crit (one extra)."""
    faces = ScriptedDice([["crit", "sword", "bow", "sword"], ["crit", "blank", "shield"]], ARCADIA.pools)
    resolution = ARCADIA.resolve(AttackRequest(arcadia_board(), 1, [2], "Dusty Blade", {}), faces)
    assert resolution.legal and len(resolution.rolls()) == 7
    return resolution


def mk_resolution() -> Resolution:
    board = Board.from_ascii(["...."])
    board.place_figure(Figure(1, "Tovak", "hero", (0, 0), {"armor": 2, "hand_limit": 5, "level": 1}))
    board.place_figure(Figure(2, "Mages", "enemies", (1, 0),
                              {"attack": 6, "element": "fire", "armor": 5, "fame": 5, "resistances": "fire"}))
    options = {"phase": "ranged", "play": "ranged 2, ranged 5 fire"}
    resolution = MAGE_KNIGHT.resolve(AttackRequest(board, 1, [2], None, options), ScriptedDice([], ()))
    assert resolution.legal and not resolution.rolls()
    return resolution


def test_nothing_is_revealed_before_every_die_settles() -> None:
    resolution = crit_resolution()
    tray = DiceTray("normal")
    tray.start(resolution, title="Mark attacks Goblin")
    assert tray.visible_faces() == [None] * 7
    seen_settled = False
    for _ in range(400):
        if tray.settled:
            seen_settled = True
            break
        assert tray.revealed_text() == ""
        assert tray.counters() == []
        assert not tray.landed
        tray.advance(0.01)
    assert seen_settled
    # the faces shown are the faces the engine rolled, in order, explosions included
    assert tray.visible_faces() == [r.face for r in resolution.rolls()]
    assert tray.revealed_text().splitlines()[0] == resolution.steps[0].text


def test_normal_speed_settles_in_about_a_second_and_speeds_scale() -> None:
    resolution = crit_resolution()
    normal = build_timeline(resolution, SPEEDS["normal"])
    assert 0.6 <= normal.settle <= 2.0
    slow = build_timeline(resolution, SPEEDS["slow"])
    fast = build_timeline(resolution, SPEEDS["fast"])
    assert slow.end == pytest.approx(2 * normal.end)
    assert fast.end < normal.end
    instant = DiceTray("instant")
    instant.start(resolution)
    assert instant.settled and instant.done and instant.landed


def test_crits_flash_and_spawn_their_extra_die() -> None:
    resolution = crit_resolution()
    tray = DiceTray()
    tray.start(resolution)
    dice = tray.dice
    extra = [d for d in dice if d.parent is not None]
    assert [d.roll.reason for d in extra] == ["explosion of die 1", "explosion of die 1"]
    for d in extra:
        parent = dice[d.parent]  # type: ignore[index]
        assert parent.roll.face == "crit" and parent.roll.pool == d.roll.pool
        assert parent.flash is not None
        assert parent.settle <= parent.flash[0] and parent.flash[1] <= d.appear < d.settle
    # the extra attack die is not on the table before its crit has settled
    tray.advance(dice[0].settle - 0.01)
    assert tray.visible_faces()[3] is None


def test_counters_count_up_and_the_wounds_land_once() -> None:
    resolution = crit_resolution()
    landed: list[Resolution] = []
    tray = DiceTray(on_land=landed.append)
    tray.start(resolution)
    final = headline_values(resolution.outcome)
    assert [label for label, _ in final] == ["hits", "saves", "damage"]
    partial_seen = False
    while not tray.done:
        tray.advance(0.02)
        shown = dict(tray.counters())
        if shown.get("hits", 0) and shown["hits"] < dict(final)["hits"]:
            partial_seen = True
        assert landed == ([resolution] if tray.landed else [])
    assert partial_seen, "the hits should count up, not jump"
    assert tray.counters() == final
    tray.advance(5.0)
    assert landed == [resolution]


def test_space_skip_jumps_to_the_end() -> None:
    resolution = crit_resolution()
    landed: list[Resolution] = []
    tray = DiceTray("slow", on_land=landed.append)
    tray.start(resolution)
    tray.advance(0.1)
    assert not tray.settled
    tray.skip()
    assert tray.settled and tray.landed and tray.done
    assert landed == [resolution]
    assert tray.revealed_text().splitlines() == [s.text for s in resolution.steps]


def test_seeded_roll_is_revealed_exactly() -> None:
    resolution = ARCADIA.resolve(AttackRequest(arcadia_board(), 1, [2], "Dusty Blade", {}), SeededDice(20261129))
    tray = DiceTray()
    tray.start(resolution)
    tray.advance(tray.duration)
    assert tray.visible_faces() == [r.face for r in resolution.rolls()]
    assert dict(tray.counters())["damage"] == resolution.outcome["damage"]


def test_mage_knight_tally_is_shown_step_by_step() -> None:
    resolution = mk_resolution()
    tray = DiceTray()
    tray.start(resolution)
    assert tray.settled and tray.dice == []  # nothing to roll
    counts = []
    while not tray.done:
        counts.append(len(tray.revealed_lines()))
        tray.advance(0.05)
    counts.append(len(tray.revealed_lines()))
    assert counts[0] == 0 and counts[-1] == len(resolution.steps)
    assert sorted(counts) == counts and len(set(counts)) == len(resolution.steps) + 1
    assert dict(tray.counters()) == {"attack": resolution.outcome["effective"],
                                     "armour": resolution.outcome["armor"]}


def test_tick_reads_the_injected_time_source() -> None:
    now = [50.0]
    tray = DiceTray(time_source=lambda: now[0])
    tray.start(crit_resolution())
    now[0] += 0.25
    tray.tick()
    assert tray.elapsed == pytest.approx(0.25)
    now[0] += 100
    tray.tick()
    assert tray.done


def test_illegal_resolutions_are_never_shown() -> None:
    with pytest.raises(ValueError):
        DiceTray().start(Resolution.illegal("not Close."))


def test_reroll_and_extra_dice_find_their_parent() -> None:
    rolls = (DieRoll("attack", "d6", 1), DieRoll("attack", "d6", 6))
    second = (DieRoll("attack", "d6", 4, "reroll of die 1 (Parry)"),
              DieRoll("attack", "d6", 2, "extra attack from die 2 (Relentless Blows)"))
    resolution = Resolution(True, "ok", (Step("roll", "2 dice", rolls), Step("reroll", "again", second)),
                            {"wounds": 1})
    tray = DiceTray()
    tray.start(resolution)
    dice = tray.dice
    assert [d.parent for d in dice] == [None, None, 0, 1]
    assert dice[0].dimmed_at is not None and dice[1].dimmed_at is None


def test_draw_puts_the_tray_away_from_the_target_and_lands_the_wound() -> None:
    pygame.font.init()
    resolution = ARCADIA.resolve(AttackRequest(arcadia_board(), 1, [2], "Dusty Blade", {}), ScriptedDice([["sword", "sword", "sword"], ["blank", "blank"]], ARCADIA.pools))
    assert resolution.outcome["damage"] == 3
    surface = pygame.Surface((800, 600))
    area = pygame.Rect(0, 0, 800, 600)
    tray = DiceTray()
    tray.start(resolution, target=2)  # the Goblin's token is at target_pos; it takes the damage
    assert tray.draw(surface, area, (400, 100)).bottom == area.bottom - 12  # target above: tray below
    tray.skip()
    surface.fill((0, 0, 0))
    rect = tray.draw(surface, area, (400, 500))
    assert rect.top == area.top + 12  # target below: tray on top
    # the wound badge has landed beside the target's token, which stays visible under its ring
    badge = [x for x in range(400, 461) if surface.get_at((x, 470))[:3] == (220, 50, 50)]
    assert badge and badge[0] < 430 < badge[-1]  # the red badge centred there, "−3" on it
    assert surface.get_at((400, 500))[:3] == (0, 0, 0)


def test_headline_counts_what_the_target_really_loses() -> None:
    folklore = {"hit_total": 10, "dodge_total": 8, "damage": 2, "real_damage": 0, "hp": 16}
    assert headline_values(folklore) == [("hit", 10), ("dodge", 8), ("HP lost", 0)]
    mage_knight = {"effective": 7, "armor": 6, "defeated": ["Prowlers"], "fame": 4}
    assert headline_values(mage_knight) == [("attack", 7), ("armour", 6)]


def wolf_riders_board() -> Board:
    board = Board.from_ascii(["...."])
    board.place_figure(Figure(1, "Tovak", "hero", (0, 0), {"armor": 2, "hand_limit": 5, "level": 1}))
    board.place_figure(Figure(2, "Wolf Riders", "enemies", (1, 0),
                              {"attack": 3, "element": "physical", "armor": 4, "fame": 3,
                               "abilities": "swift"}))
    return board


def failed_block() -> Resolution:
    """Block 5 against the Swift Wolf Riders (needs 6): 3 damage to assign later, nobody changed."""
    options = {"phase": "block", "play": "block 5"}
    resolution = MAGE_KNIGHT.resolve(AttackRequest(wolf_riders_board(), 1, [2], "Block", options), ScriptedDice([], ()))
    assert resolution.legal and resolution.outcome["blocked"] is False and not resolution.changes
    return resolution


def test_every_result_line_is_drawn_whole_wrapped_to_the_tray() -> None:
    pygame.font.init()
    long_steps = tuple(Step("note", f"Step {i}: " + "a long explanation of what happened " * (i % 3 + 1))
                       for i in range(10))
    roll = Step("roll", "Mark rolls 1 attack die: sword.", (DieRoll("attack", "attack", "sword"),))
    resolution = Resolution(True, "ok", (roll, *long_steps), {"hits": 1})
    area = pygame.Rect(0, 0, 700, 700)
    tray = DiceTray()
    tray.start(resolution)
    tray.skip()
    rect = tray.draw(pygame.Surface(area.size), area)
    assert rect is not None and len(tray.revealed_lines()) == 11  # more than the old 9 lines
    small = tray.font(17)
    assert all(small.size(row)[0] <= rect.w - 24 for row in tray.shown_rows)  # nothing cut
    assert len(tray.shown_rows) > 11  # long lines wrapped onto several rows
    joined = " ".join(row.strip() for row in tray.shown_rows)
    for line in tray.revealed_lines():
        assert line.strip() in joined  # the first line too, every word of every line


def test_a_mage_knight_block_line_is_not_cut() -> None:
    pygame.font.init()
    tray = DiceTray()
    tray.start(failed_block(), title="Tovak blocks Wolf Riders: block 5")
    tray.skip()
    area = pygame.Rect(0, 0, 560, 500)
    tray.draw(pygame.Surface(area.size), area)
    joined = " ".join(row.strip() for row in tray.shown_rows)
    compare = next(line for line in tray.revealed_lines() if "3 damage gets through" in line)
    assert compare in joined and not any(row.endswith("…") for row in tray.shown_rows)


def test_a_short_window_shows_the_last_lines_and_says_how_many_are_above() -> None:
    pygame.font.init()
    steps = tuple(Step("note", f"line {i}") for i in range(30))
    tray = DiceTray()
    tray.start(Resolution(True, "ok", steps, {}))
    tray.skip()
    area = pygame.Rect(0, 0, 600, 300)
    rect = tray.draw(pygame.Surface(area.size), area)
    assert rect is not None and rect.h <= area.h - 24
    assert tray.shown_rows[0].startswith("… ") and "above" in tray.shown_rows[0]
    assert tray.shown_rows[-1] == "line 29"


def red_pixels(surface: pygame.Surface, box: pygame.Rect) -> int:
    return sum(1 for x in range(box.left, box.right) for y in range(box.top, box.bottom)
               if surface.get_at((x, y))[:3] == (220, 50, 50))


def test_the_damage_badge_lands_only_on_the_figure_that_takes_it() -> None:
    pygame.font.init()
    area = pygame.Rect(0, 0, 800, 600)
    around = pygame.Rect(380, 440, 100, 90)  # the badge's flight end beside (400, 500)
    # a failed block changes nobody: no "−3" on the Wolf Riders (the damage is assigned later)
    tray = DiceTray()
    tray.start(failed_block(), target=2)
    assert tray.damaged_figure() is None
    tray.skip()
    surface = pygame.Surface(area.size)
    tray.draw(surface, area, (400, 500))
    assert red_pixels(surface, around) == 0
    # an Arcadia hit changes the target (and the attacker's exhausted card): the badge is there
    hit = ARCADIA.resolve(AttackRequest(arcadia_board(), 1, [2], "Dusty Blade", {}), ScriptedDice([["sword", "sword", "sword"], ["blank", "blank"]], ARCADIA.pools))
    tray.start(hit, target=2)
    assert tray.damaged_figure() == 2
    tray.skip()
    surface.fill((0, 0, 0))
    tray.draw(surface, area, (400, 500))
    assert red_pixels(surface, around) > 50
    # the target's position given for another figure than the damaged one: no badge there,
    # and the landing position (the damaged figure's token) gets it instead
    tray.start(hit, target=99)
    assert tray.damaged_figure() == 1  # not the target: the first figure changed
    tray.skip()
    surface.fill((0, 0, 0))
    tray.draw(surface, area, (400, 500))
    assert red_pixels(surface, around) == 0
    surface.fill((0, 0, 0))
    tray.draw(surface, area, (400, 500), landing_pos=(200, 500))
    assert red_pixels(surface, around) == 0 and red_pixels(surface, around.move(-200, 0)) > 50
