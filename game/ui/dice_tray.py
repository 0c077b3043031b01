"""The dice tray: reveals a :class:`~game.rules.base.Resolution` that is already computed.

The engine resolves the attack first; the tray only shows it, so nothing it does can change the
result. The reveal, in order:

1. **tumble**: every die rolled (pool by pool, a row each) tumbles and settles; a crit (a die
   that made the rules roll another) flashes and its extra die appears; a re-rolled die dims;
2. **count**: once every die has settled, the result lines appear one by one and the headline
   numbers (hits, saves, damage ...) count up from 0, beside the thresholds they are compared
   with (:data:`THRESHOLDS`: the Armor to reach), which stand at their value;
3. **land**: the wounds land on the target's token (the window applies the changes now, see
   :attr:`DiceTray.landed`), then the tray is :attr:`~DiceTray.done`.

No result number is shown before the dice settle: :meth:`DiceTray.revealed_text` stays empty and
:meth:`DiceTray.visible_faces` is None for a tumbling die. Deterministic rules (Mage Knight) roll
nothing: the tray shows the tally step by step instead.

Any die is drawn by what the rules say of it (:meth:`game.rules.base.Ruleset.die_look`, asked
through ``rules``): a tumbling die flicks through its own faces, and a face shows its symbols —
a small icon for the common ones (hit, crit, shield, sword, bow, skull, heart, star), the first
letters of any other, up to four symbols a face (``hit+hit+crit``); number faces show pips (1–6)
or the number. A ruleset file's dice need nothing more.

The clock is injected: :meth:`DiceTray.advance` moves it by ``dt`` seconds, or :meth:`tick`
reads ``time_source``. ``speed`` is ``slow``, ``normal`` (about a second of dice), ``fast`` or
``instant``; :meth:`DiceTray.skip` (the Space key) jumps to the end.

>>> from game.core.dice import DieRoll
>>> from game.rules.base import Resolution, Step
>>> roll = Step("roll", "Ember rolls 1 attack die: crit.", (DieRoll("attack", "attack", "crit"),))
>>> more = Step("explode", "Crit: one more attack die (explosion of die 1): bow.",
...             (DieRoll("attack", "attack", "bow", "explosion of die 1"),))
>>> tally = Step("tally", "2 hits.", (), {"hits": 2, "dice": [1, 2]})
>>> tray = DiceTray()
>>> tray.start(Resolution(True, "ok", (roll, more, tally), {"hits": 2, "damage": 2}))
>>> tray.settled, tray.revealed_text(), tray.visible_faces()
(False, '', [None, None])
>>> tray.advance(10.0)
>>> tray.settled, tray.done, tray.visible_faces()
(True, True, ['crit', 'bow'])
>>> tray.revealed_text().splitlines()[-1]
'2 hits.'
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import pygame

from game.core.board import Board
from game.core.dice import DieRoll, Face
from game.play.attack import AttackController
from game.play.roll_log import plain_text
from game.rules.base import DieLook, Resolution, Ruleset
from game.ui.odds_chart import NOTO_SCALE, chart_font_path
from game.ui.text import wrap
from game.ui.view import View

#: speed name → factor on every duration (0 = show the end at once)
SPEEDS: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.4, "instant": 0.0}
SPEED_NAMES: tuple[str, ...] = tuple(SPEEDS)

#: durations at normal speed, seconds
TUMBLE = 0.5  #: every pool's dice tumble this long
ROW_STAGGER = 0.12  #: each further pool (row) settles this much later
STAGGER = 0.04  #: each further die of a pool settles this much later
FLASH = 0.16  #: a crit flashes this long before its extra die appears
EXTRA_TUMBLE = 0.25  #: an extra or re-rolled die tumbles this long
REVEAL = 0.18  #: between two result lines
COUNT_STEP = 0.07  #: per unit counted up in the headline
TALLY_STEP = 0.45  #: deterministic rules: between two tally lines
LAND = 0.4  #: the wounds fly to the target
#: the tray's result lines: pixels per (wrapped) row, and the font size they are drawn in
LINE_H = 17
LINE_FONT = 17
#: the tray's top (title) and the room of the headline counters
TITLE_H = 32
HEAD_H = 26
#: the tray's widest (it sits over the board: compact, the board stays visible around it)
TRAY_W = 520
#: the dice's sizes, pixels (smallest, largest), and the room of a row's pool label
DIE_MIN, DIE_MAX = 20, 30
LABEL_W = 78
#: headline numbers that are thresholds, not counts: shown at once, never counted up from 0
THRESHOLDS = frozenset({"armour", "needed"})

#: outcome keys shown as headline counters, with their labels (first match wins per label)
HEADLINE: tuple[tuple[str, str], ...] = (
    ("hits", "hits"),
    ("saves", "saves"),
    ("hit_total", "hit"),
    ("dodge_total", "dodge"),
    ("effective", "attack"),
    ("block", "block"),
    ("needed", "needed"),
    ("armor", "armour"),
    ("real_damage", "HP lost"),
    ("damage", "damage"),
    ("wounds", "wounds"),
)

TRAY_BG = (22, 24, 30, 228)
TRAY_BORDER = (90, 96, 110)
TEXT = (232, 232, 238)
MUTED = (150, 152, 160)
HEADLINE_TEXT = (255, 214, 102)
CRIT_FLASH = (255, 220, 60)
HIT_RING = (80, 220, 120)
SAVE_RING = (90, 170, 255)
WOUND = (220, 50, 50)
#: die body and ink by pool row (row 0 black attack dice, row 1 white defence dice, ...)
DIE_COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((34, 34, 40), (240, 240, 240)),
    ((238, 238, 232), (30, 30, 36)),
    ((170, 40, 40), (250, 250, 250)),
    ((40, 90, 160), (250, 250, 250)),
)
#: faces a tumbling die flicks through, by pool name (numbers for the rest)
TUMBLE_FACES: dict[str, tuple[Face, ...]] = {
    "attack": ("sword", "bow", "crit", "sword", "bow"),
    "defence": ("shield", "blank", "crit", "blank"),
}

_PARENT_RE = re.compile(r"\b(?:of|from) die (\d+)")


@dataclass
class TrayDie:
    """One die in the tray: what it rolled, where it sits, when it appears and settles."""

    roll: DieRoll
    row: int
    column: int
    appear: float
    settle: float
    parent: int | None = None  #: index (in the tray's dice) of the die that made this one
    flash: tuple[float, float] | None = None  #: (from, to) while this die flashes as a crit
    dimmed_at: float | None = None  #: re-rolled: dim from this time
    ring: tuple[int, int, int] | None = None  #: hit / save ring, shown from ``ring_at``
    ring_at: float = 0.0


@dataclass
class Counter:
    """A headline number counted up from 0 to ``value`` between ``start`` and ``end``."""

    label: str
    value: int
    start: float
    end: float


@dataclass
class _Timeline:
    dice: list[TrayDie] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)
    lines: list[tuple[float, str]] = field(default_factory=list)
    counters: list[Counter] = field(default_factory=list)
    settle: float = 0.0
    land: float = 0.0
    end: float = 0.0


def build_timeline(resolution: Resolution, factor: float) -> _Timeline:
    """When each die appears and settles, each line shows, each counter counts (seconds × factor)."""
    tl = _Timeline()
    by_pool: dict[str, list[int]] = {}
    #: per pool: when its last die settles (an extra die waits for it)
    cursor: dict[str, float] = {}
    last_pool: str | None = None
    rolled_any = False
    text_steps = []
    for step in resolution.steps:
        if step.rolls:
            rolled_any = True
            step_base: dict[str, float] = {}
            for k, roll in enumerate(step.rolls):
                if roll.pool not in tl.rows:
                    tl.rows.append(roll.pool)
                row = tl.rows.index(roll.pool)
                dice_in_pool = by_pool.setdefault(roll.pool, [])
                parent = _parent(roll, dice_in_pool)
                if parent is None:
                    # every pool tumbles at once, rows settling one after another; a pool
                    # rolled again (a later step) waits for its earlier dice
                    if roll.pool not in step_base:
                        step_base[roll.pool] = cursor.get(roll.pool, 0.0)
                    appear = step_base[roll.pool]
                    settle = appear + (TUMBLE + ROW_STAGGER * row + STAGGER * k) * factor
                else:
                    begin = max(tl.dice[parent].settle, cursor.get(roll.pool, 0.0))
                    flash_end = begin + FLASH * factor
                    tl.dice[parent].flash = (begin, flash_end)
                    if "reroll" in roll.reason or "re-roll" in roll.reason:
                        tl.dice[parent].dimmed_at = flash_end
                    appear, settle = flash_end, flash_end + EXTRA_TUMBLE * factor
                column = sum(1 for d in tl.dice if d.row == row)
                tl.dice.append(TrayDie(roll, row, column, appear, settle, parent))
                dice_in_pool.append(len(tl.dice) - 1)
                cursor[roll.pool] = max(cursor.get(roll.pool, 0.0), settle)
            last_pool = step.rolls[-1].pool
        else:
            text_steps.append((step, last_pool))
    t = max(cursor.values(), default=0.0)
    tl.settle = t
    # the result lines, in the engine's order: the opening rolls' sentences as the dice settle,
    # then one line after another
    gap = (REVEAL if rolled_any else TALLY_STEP) * factor
    t = tl.settle
    opening = True
    pools = dict((id(step), pool) for step, pool in text_steps)
    for step in resolution.steps:
        if step.rolls and opening:
            tl.lines.append((tl.settle, plain_text(step.text)))
            continue
        opening = False
        t += gap
        tl.lines.append((t, plain_text(step.text)))
        if not step.rolls:
            _ring_dice(tl, step.data, pools.get(id(step)), t)
    # the headline counters count up one after another from when the dice settle
    c = tl.settle
    # (a threshold, such as the Armor to reach, stands at its value from the start)
    for label, value in headline_values(resolution.outcome):
        if label in THRESHOLDS:
            tl.counters.append(Counter(label, value, tl.settle, tl.settle))
            continue
        duration = (0.15 + COUNT_STEP * min(abs(value), 12)) * factor
        tl.counters.append(Counter(label, value, c, c + duration))
        c += duration
    tl.land = max(t, c)
    tl.end = tl.land + LAND * factor
    return tl


def _parent(roll: DieRoll, dice_in_pool: list[int]) -> int | None:
    match = _PARENT_RE.search(roll.reason)
    if not match:
        return None
    number = int(match.group(1))
    return dice_in_pool[number - 1] if 0 < number <= len(dice_in_pool) else None


def _ring_dice(tl: _Timeline, data: Mapping[str, object], pool: str | None, at: float) -> None:
    """A tally naming the dice that hit or saved (1-based within its pool) rings them."""
    numbers = data.get("dice")
    if pool is None or not isinstance(numbers, list | tuple):
        return
    if isinstance(data.get("hits"), int) and not isinstance(data.get("hits"), bool):
        colour = HIT_RING
    elif isinstance(data.get("saves"), int) and not isinstance(data.get("saves"), bool):
        colour = SAVE_RING
    else:
        return
    in_pool = [d for d in tl.dice if d.roll.pool == pool]
    for number in numbers:
        if isinstance(number, int) and 0 < number <= len(in_pool):
            in_pool[number - 1].ring = colour
            in_pool[number - 1].ring_at = at


def headline_values(outcome: Mapping[str, object]) -> list[tuple[str, int]]:
    """The outcome's numbers worth counting up, in :data:`HEADLINE` order.

    A list counts its length (Conquest's kept hits); ``wounds`` is left out when ``damage`` is
    there (Arcadia's ``wounds`` is the running total, not this attack's), ``damage`` when
    ``real_damage`` is (the 2D6 game: what armour lets through is what counts).

    >>> headline_values({"hits": 3, "saves": 1, "damage": 2, "wounds": 4, "killed": True})
    [('hits', 3), ('saves', 1), ('damage', 2)]
    >>> headline_values({"hits": [2, 4], "wounds": 1})
    [('hits', 2), ('wounds', 1)]
    """
    out: list[tuple[str, int]] = []
    labels: set[str] = set()
    for key, label in HEADLINE:
        if (key == "wounds" and "damage" in outcome) or (key == "damage" and "real_damage" in outcome):
            continue
        value = outcome.get(key)
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, list | tuple):
            if not all(isinstance(v, int) for v in value):
                continue
            number = len(value) if key == "hits" else sum(value)
        elif isinstance(value, int):
            number = value
        else:
            continue
        if label not in labels:
            labels.add(label)
            out.append((label, number))
    return out


class DiceTray:
    """The animation of one resolution at a time, over the board.

    ``on_land`` (if given) is called once, when the wounds land (or at once on :meth:`skip`).
    """

    def __init__(
        self,
        speed: str = "normal",
        *,
        time_source: Callable[[], float] | None = None,
        on_land: Callable[[Resolution], None] | None = None,
        rules: Callable[[], Ruleset | None] | None = None,
    ) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"tray speed must be one of {', '.join(SPEEDS)}, not {speed!r}")
        self.speed = speed
        self.time_source = time_source
        self.on_land = on_land
        #: the rules of the board shown (asked when a reveal starts: how its dice look)
        self.rules = rules
        #: die name → how it looks, for the resolution shown (:meth:`Ruleset.die_look`)
        self.looks: dict[str, DieLook] = {}
        self.resolution: Resolution | None = None
        self.title = ""
        #: the figure whose token ``target_pos`` (of :meth:`draw`) is: the damage badge lands
        #: there only when that figure is the one the resolution changes
        self.target_figure: int | None = None
        #: the result rows the last :meth:`draw` showed, wrapped as drawn (tests read them)
        self.shown_rows: list[str] = []
        #: the headline the last :meth:`draw` showed ("" before the dice settle)
        self.headline = ""
        self.elapsed = 0.0
        self._timeline = _Timeline()
        self._landed_called = False
        self._last_tick: float | None = None
        self._fonts: dict[int, pygame.font.Font] = {}
        self._die_cache: dict[tuple[object, ...], pygame.Surface] = {}
        #: (line, width) → its wrapped rows (asked every frame)
        self._wrapped: dict[tuple[str, int], list[str]] = {}

    # --- the clock -----------------------------------------------------------------------

    def start(self, resolution: Resolution, *, title: str = "", target: int | None = None) -> None:
        """Show ``resolution`` from the beginning (an illegal one is never shown); ``target`` is
        the figure whose token the window will pass to :meth:`draw` as ``target_pos``."""
        if not resolution.legal:
            raise ValueError(f"the tray shows legal resolutions only: {resolution.reason}")
        self.resolution = resolution
        self.title = title
        self.target_figure = target
        self.looks = self._looks_of(resolution)
        self.elapsed = 0.0
        self._landed_called = False
        self._timeline = build_timeline(resolution, SPEEDS[self.speed])
        self._last_tick = self.time_source() if self.time_source is not None else None
        self._check_land()

    def _looks_of(self, resolution: Resolution) -> dict[str, DieLook]:
        """How each die the resolution rolled looks, as the rules say (none without rules)."""
        rules = self.rules() if self.rules is not None else None
        if rules is None:
            return {}
        out: dict[str, DieLook] = {}
        for roll in resolution.rolls():
            if roll.die not in out:
                look = rules.die_look(roll.die)
                if look is not None:
                    out[roll.die] = look
        return out

    def advance(self, dt: float) -> None:
        """Move the tray's clock on by ``dt`` seconds."""
        if self.resolution is None:
            return
        self.elapsed = min(self._timeline.end, self.elapsed + max(0.0, dt))
        self._check_land()

    def tick(self) -> None:
        """Advance by the time ``time_source`` says has passed since the last tick."""
        source = self.time_source or time.monotonic
        now = source()
        if self._last_tick is not None:
            self.advance(now - self._last_tick)
        self._last_tick = now

    def skip(self) -> None:
        """Jump to the end (the Space key): every die settled, every line shown, wounds landed."""
        if self.resolution is not None:
            self.elapsed = self._timeline.end
            self._check_land()

    def clear(self) -> None:
        """Hide the tray (the result stays in the log)."""
        self.resolution = None
        self.elapsed = 0.0
        self._timeline = _Timeline()

    def _check_land(self) -> None:
        if self.resolution is not None and self.landed and not self._landed_called:
            self._landed_called = True
            if self.on_land is not None:
                self.on_land(self.resolution)

    # --- state ---------------------------------------------------------------------------

    @property
    def active(self) -> bool:
        """Whether a resolution is being shown (animating or finished but not cleared)."""
        return self.resolution is not None

    @property
    def busy(self) -> bool:
        """Whether the animation is still running."""
        return self.resolution is not None and not self.done

    @property
    def settled(self) -> bool:
        """Whether every die has stopped (always, for rules that roll nothing)."""
        return self.resolution is not None and self.elapsed >= self._timeline.settle

    @property
    def landed(self) -> bool:
        """Whether the wounds have landed (the changes belong on the board from now on)."""
        return self.resolution is not None and self.elapsed >= self._timeline.land

    @property
    def done(self) -> bool:
        """Whether the whole reveal is over."""
        return self.resolution is not None and self.elapsed >= self._timeline.end

    @property
    def duration(self) -> float:
        """The length of the whole reveal at this speed, seconds."""
        return self._timeline.end

    @property
    def dice(self) -> list[TrayDie]:
        """The dice in the tray, in the order rolled."""
        return list(self._timeline.dice)

    def visible_faces(self) -> list[Face | None]:
        """Each die's face as shown now: None while it has not appeared or still tumbles."""
        return [d.roll.face if self.elapsed >= d.settle else None for d in self._timeline.dice]

    def revealed_lines(self) -> list[str]:
        """The result lines shown so far (none before every die has settled)."""
        if not self.settled:
            return []
        return [text for at, text in self._timeline.lines if self.elapsed >= at]

    def revealed_text(self) -> str:
        """:meth:`revealed_lines` as one text ("" before the dice settle)."""
        return "\n".join(self.revealed_lines())

    def counters(self) -> list[tuple[str, int]]:
        """The headline numbers as shown now (counting up; none before the dice settle)."""
        if not self.settled:
            return []
        shown = []
        for c in self._timeline.counters:
            if self.elapsed < c.start:
                continue
            span = c.end - c.start
            part = 1.0 if span <= 0 else min(1.0, (self.elapsed - c.start) / span)
            shown.append((c.label, round(c.value * part) if part < 1 else c.value))
        return shown

    # --- drawing -------------------------------------------------------------------------

    def font(self, size: int) -> pygame.font.Font:
        """The panel's typeface as tall as pygame's default font at ``size`` pixels (cached;
        see :meth:`game.ui.odds_chart.OddsChart.font`)."""
        font = self._fonts.get(size)
        if font is None:
            if not pygame.font.get_init():
                pygame.font.init()
            path = chart_font_path()
            scaled = max(6, round(size * NOTO_SCALE))
            font = pygame.font.Font(path, scaled) if path is not None else pygame.font.Font(None, size)
            self._fonts[size] = font
        return font

    def wrapped_lines(self, width: int, lines: list[str] | None = None) -> list[str]:
        """The result lines (all of them, or ``lines``) wrapped to ``width`` pixels: one entry
        per row drawn, a step's continuation rows indented."""
        small = self.font(LINE_FONT)
        texts = [text for _, text in self._timeline.lines] if lines is None else lines
        out: list[str] = []
        for text in texts:
            rows = self._wrapped.get((text, width))
            if rows is None:
                if len(self._wrapped) > 500:
                    self._wrapped.clear()
                rows = self._wrapped[(text, width)] = wrap(small, text, width, indent="   ")
            out.extend(rows)
        return out

    def damaged_figure(self) -> int | None:
        """The figure the damage lands on: the target when the resolution changes it, else the
        first figure it changes (Mage Knight's assigned damage: a Unit or the Hero); None when
        it changes nobody (a failed Mage Knight block: the damage is assigned later)."""
        if self.resolution is None:
            return None
        changed = [c.figure_id for c in self.resolution.changes]
        if self.target_figure is not None and self.target_figure in changed:
            return self.target_figure
        return changed[0] if changed else None

    def tray_rect(self, area: pygame.Rect, target_pos: tuple[int, int] | None = None,
                  avoid: Sequence[pygame.Rect] = ()) -> pygame.Rect:
        """Where the tray sits inside the board ``area``: bottom centre, or top centre when the
        target's token is in the lower half (the tray never hides where the wounds land); of
        those two and the corners, the first that covers none of ``avoid`` (the attacker's token).

        It is tall enough for every result line, wrapped to its width (up to the area's height).
        """
        rows = len(self._timeline.rows)
        die = self._die_size(area)
        width = min(area.w - 24, TRAY_W)
        lines = max(2, len(self.wrapped_lines(width - 24)))
        height = TITLE_H + rows * (die + 8) + HEAD_H + lines * LINE_H + 8
        height = min(height, area.h - 24)
        low, high = area.bottom - height - 12, area.top + 12
        tops = (high, low) if target_pos is not None and target_pos[1] > area.centery else (low, high)
        places = [pygame.Rect(area.centerx - width // 2, top, width, height) for top in tops]
        places += [pygame.Rect(x, top, width, height) for top in tops for x in (area.x + 12, area.right - width - 12)]
        keep = [p for p in places if target_pos is None or not p.collidepoint(target_pos)] or places
        return next((p for p in keep if not any(p.colliderect(r) for r in avoid)), keep[0])

    def _die_size(self, area: pygame.Rect) -> int:
        most = max((sum(1 for d in self._timeline.dice if d.row == r) for r in range(len(self._timeline.rows))), default=1)
        width = min(area.w - 24, TRAY_W) - LABEL_W - 12
        return int(max(DIE_MIN, min(DIE_MAX, width / max(1, most) - 6)))

    def draw_over(self, screen: pygame.Surface, view: View, board: Board, attack: AttackController,
                  scale: float, area: pygame.Rect | None = None) -> None:
        """The tray over the board while ``attack`` is revealed, inside ``area`` (the board area
        less the coordinate labels): clear of the first target and of the attacker, the damage
        flying to the figure hit; laid out in UI units and scaled like the panel."""
        if not attack.tray.active:
            return
        targets = [t for t in attack.targets if t in board.figures]
        landing = view.square_centre(board.figure(targets[0]).square) if targets else None
        hit = attack.landing_figure()  # who takes the damage (a failed block: the hero)
        landing_at = view.square_centre(board.figure(hit).square) if hit is not None and hit in board.figures else None
        attacker = attack.attacker
        avoid = [pygame.Rect(view.square_rect(board.figure(attacker).square))] \
            if attacker is not None and attacker in board.figures else []
        area = pygame.Rect(view.viewport) if area is None else pygame.Rect(area)
        if scale != 1.0:
            layer = pygame.Surface((max(1, round(area.w / scale)), max(1, round(area.h / scale))), pygame.SRCALPHA)
            shrunk = [pygame.Rect(round((r.x - area.x) / scale), round((r.y - area.y) / scale),
                                  round(r.w / scale), round(r.h / scale)) for r in avoid]
            self.draw(layer, layer.get_rect(), _shrink(landing, scale, area), _shrink(landing_at, scale, area), shrunk)
            screen.blit(pygame.transform.smoothscale(layer, area.size), area.topleft)
            return
        old_clip = screen.get_clip()
        screen.set_clip(area)
        self.draw(screen, area, landing, landing_at, avoid)
        screen.set_clip(old_clip)

    def draw(
        self,
        surface: pygame.Surface,
        area: pygame.Rect,
        target_pos: tuple[int, int] | None = None,
        landing_pos: tuple[int, int] | None = None,
        avoid: Sequence[pygame.Rect] = (),
    ) -> pygame.Rect | None:
        """Draw the tray inside ``area`` (the board's part of the window); returns its rect.

        ``target_pos`` is the centre on screen of the token of :attr:`target_figure` (the tray
        keeps clear of it, and of ``avoid``: the attacker's square); ``landing_pos`` that of
        :meth:`damaged_figure`'s token. The damage badge flies to the figure that takes the
        damage: ``landing_pos``, else ``target_pos`` when the target is that figure, else nowhere.
        """
        if self.resolution is None:
            return None
        rect = self.tray_rect(pygame.Rect(area), target_pos, avoid)
        panel = pygame.Surface(rect.size, pygame.SRCALPHA)
        panel.fill(TRAY_BG)
        pygame.draw.rect(panel, TRAY_BORDER, panel.get_rect(), 2, border_radius=8)
        hint = "Space: skip" if not self.done else "Esc: close"
        hint_label = self.font(14).render(hint, True, MUTED)
        panel.blit(hint_label, hint_label.get_rect(topright=(rect.w - 10, 10)))
        title = _fit(self.font(18), plain_text(self.title or "Attack"), rect.w - hint_label.get_width() - 32)
        panel.blit(self.font(18).render(title, True, TEXT), (12, 8))
        die = self._die_size(pygame.Rect(area))
        y = TITLE_H
        for row, pool in enumerate(self._timeline.rows):
            label = self.font(16).render(_fit(self.font(16), pool, LABEL_W - 4), True, MUTED)
            panel.blit(label, label.get_rect(midleft=(12, y + die // 2 + 2)))
            for d in self._timeline.dice:
                if d.row == row and self.elapsed >= d.appear:
                    centre = (12 + LABEL_W + d.column * (die + 6) + die // 2, y + die // 2 + 2)
                    self._draw_die(panel, d, centre, die, row)
            y += die + 8
        counters = self.counters()
        if counters:
            self.headline = headline_text(counters)
            head = self.font(22).render(_fit(self.font(22), self.headline, rect.w - 24), True, HEADLINE_TEXT)
            panel.blit(head, (12, y))
        else:
            self.headline = ""
        y += HEAD_H
        rows = self.wrapped_lines(rect.w - 24, self.revealed_lines())
        room = max(1, (rect.h - y - 6) // LINE_H)
        small = self.font(LINE_FONT)
        if len(rows) > room:  # a window too short for them all: the last ones, and a note
            hidden = len(rows) - room + 1
            rows = [f"… {hidden} more line{'s' if hidden != 1 else ''} above (the roll log has all)",
                    *rows[hidden:]]
        self.shown_rows = rows
        for i, line in enumerate(rows):
            colour = MUTED if i == 0 and line.startswith("… ") else TEXT
            panel.blit(small.render(_fit(small, line, rect.w - 24), True, colour), (12, y))
            y += LINE_H
        surface.blit(panel, rect.topleft)
        self._draw_landing(surface, rect, target_pos, landing_pos)
        return rect

    def _draw_die(
        self, panel: pygame.Surface, d: TrayDie, centre: tuple[int, int], size: int, row: int
    ) -> None:
        body, ink = DIE_COLOURS[row % len(DIE_COLOURS)]
        settled = self.elapsed >= d.settle
        look = self.looks.get(d.roll.die)
        face = self.shown_face(d)
        if settled:
            angle, lift = 0.0, 0
        else:
            left = d.settle - self.elapsed
            angle = (left * 900 + d.column * 40) % 360
            lift = round(abs(math.sin(left * 14)) * size * 0.25 * min(1.0, left * 3))
        symbols = look.symbols_of(face) if look is not None else None
        sprite = self._die_sprite(face, size, body, ink, symbols or None)
        if d.dimmed_at is not None and self.elapsed >= d.dimmed_at:
            sprite = sprite.copy()
            sprite.set_alpha(90)
        if angle:
            sprite = pygame.transform.rotate(sprite, angle)
        where = sprite.get_rect(center=(centre[0], centre[1] - lift))
        if d.flash is not None and d.flash[0] <= self.elapsed < d.flash[1] + 0.25:
            pulse = 0.5 + 0.5 * math.sin(self.elapsed * 40)
            glow = round(size * 0.62 + 4 * pulse)
            pygame.draw.circle(panel, CRIT_FLASH, centre, glow, 4)
        panel.blit(sprite, where)
        if settled and d.ring is not None and self.elapsed >= d.ring_at:
            pygame.draw.rect(panel, d.ring, pygame.Rect(0, 0, size + 6, size + 6).move(
                centre[0] - size // 2 - 3, centre[1] - size // 2 - 3), 3, border_radius=7)

    def shown_face(self, d: TrayDie) -> Face:
        """The face ``d`` shows now: its rolled face once settled; while it tumbles, one face
        after another of its own die (:attr:`looks`; without them the pool's usual faces)."""
        if self.elapsed >= d.settle:
            return d.roll.face
        look = self.looks.get(d.roll.die)
        choices = look.faces if look is not None else TUMBLE_FACES.get(d.roll.pool) or (1, 2, 3, 4, 5, 6)
        return choices[int(self.elapsed * 17 + d.column * 3 + d.row) % len(choices)]

    def _die_sprite(
        self, face: Face, size: int, body: tuple[int, int, int], ink: tuple[int, int, int],
        symbols: tuple[str, ...] | None = None,
    ) -> pygame.Surface:
        key = (face, size, body, ink, symbols)
        sprite = self._die_cache.get(key)
        if sprite is not None:
            return sprite
        sprite = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(sprite, body, sprite.get_rect(), border_radius=max(3, size // 6))
        pygame.draw.rect(sprite, (90, 90, 96), sprite.get_rect(), 1, border_radius=max(3, size // 6))
        if symbols:
            draw_symbols(sprite, symbols, ink, self.font)
        else:
            draw_face(sprite, face, ink, self.font(max(12, int(size * 0.7))))
        if len(self._die_cache) > 400:
            self._die_cache.clear()
        self._die_cache[key] = sprite
        return sprite

    def _draw_landing(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        target_pos: tuple[int, int] | None,
        landing_pos: tuple[int, int] | None = None,
    ) -> None:
        """The damage flies from the tray to the token of the figure that takes it, then rings
        it: ``landing_pos`` when given, else ``target_pos`` when the target is that figure;
        nothing when the resolution changes nobody."""
        damaged = self.damaged_figure()
        if landing_pos is None and damaged is not None and damaged == self.target_figure:
            landing_pos = target_pos
        target_pos = landing_pos if damaged is not None else None
        if target_pos is None or self.resolution is None or not self.landed:
            return
        damage = next((v for k, v in headline_values(self.resolution.outcome)
                       if k in ("HP lost", "damage", "wounds")), 0)
        span = self._timeline.end - self._timeline.land
        part = 1.0 if span <= 0 else min(1.0, (self.elapsed - self._timeline.land) / span)
        start = (rect.centerx, rect.centery)
        end = (target_pos[0] + 30, target_pos[1] - 30)  # beside the token: its pips stay visible
        x = round(start[0] + (end[0] - start[0]) * part)
        y = round(start[1] + (end[1] - start[1]) * part)
        if damage:
            label = self.font(30).render(f"−{damage}", True, (255, 255, 255))
            badge = label.get_rect(center=(x, y)).inflate(14, 8)
            pygame.draw.rect(surface, WOUND, badge, border_radius=8)
            surface.blit(label, label.get_rect(center=badge.center))
        if part >= 1.0:
            pygame.draw.circle(surface, WOUND if damage else MUTED, target_pos, 30, 3)


def headline_text(counters: list[tuple[str, int]]) -> str:
    """The headline numbers as drawn: each label capitalised once, then its number.

    >>> headline_text([("attack", 7), ("armour", 6)])
    'Attack 7 · Armour 6'
    >>> headline_text([("HP lost", 2)])
    'HP lost 2'
    """
    return " · ".join(f"{label[:1].upper()}{label[1:]} {value}" for label, value in counters)


def _fit(font: pygame.font.Font, text: str, width: int) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` pixels."""
    if font.size(text)[0] <= width:
        return text
    while len(text) > 4 and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_face(sprite: pygame.Surface, face: Face, ink: tuple[int, int, int], font: pygame.font.Font) -> None:
    """Draw a face on a die sprite: pips for 1–6, a numeral above, a small icon for a symbol."""
    w, h = sprite.get_size()
    cx, cy = w // 2, h // 2
    if isinstance(face, int) or (isinstance(face, str) and face.lstrip("-").isdigit()):
        value = int(face)
        if 1 <= value <= 6:
            r = max(2, w // 11)
            spots = {
                1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
                4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
                5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
                6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
            }[value]
            step = w * 0.27
            for dx, dy in spots:
                pygame.draw.circle(sprite, ink, (round(cx + dx * step), round(cy + dy * step)), r)
            return
        label = font.render(str(value), True, ink)
        sprite.blit(label, label.get_rect(center=(cx, cy)))
        return
    draw_symbol(sprite, str(face), (cx, cy), w, ink, font)


#: symbols drawn as nothing (a face that shows no result)
BLANK_SYMBOLS = frozenset({"blank", "none", "empty"})


def draw_symbols(
    sprite: pygame.Surface,
    symbols: tuple[str, ...],
    ink: tuple[int, int, int],
    fonts: Callable[[int], pygame.font.Font],
) -> None:
    """Draw the symbols a face shows (``hit+hit+crit``): one symbol fills the face, two sit side
    by side, three or four in a 2×2 grid, more as the first three and a count; blank symbols are
    not drawn. ``fonts(size)`` gives the text of a symbol without an icon.
    """
    shown = [s for s in symbols if s.lower() not in BLANK_SYMBOLS]
    if not shown:
        return
    w, h = sprite.get_size()
    if len(shown) > 4:
        shown = [*shown[:3], f"+{len(shown) - 3}"]
    if len(shown) == 1:
        draw_symbol(sprite, shown[0], (w // 2, h // 2), w, ink, fonts(max(12, int(w * 0.7))))
        return
    cell = w // 2
    if len(shown) == 2:
        spots = [(w // 4, h // 2), (3 * w // 4, h // 2)]
    else:
        spots = [(w // 4, h // 4), (3 * w // 4, h // 4), (w // 4, 3 * h // 4), (3 * w // 4, 3 * h // 4)]
    font = fonts(max(8, int(cell * 0.8)))
    for name, centre in zip(shown, spots, strict=False):
        draw_symbol(sprite, name, centre, cell + 2, ink, font, short=True)


def draw_symbol(
    sprite: pygame.Surface,
    name: str,
    centre: tuple[int, int],
    w: int,
    ink: tuple[int, int, int],
    font: pygame.font.Font,
    *,
    short: bool = False,
) -> None:
    """One symbol as a small icon in a square ``w`` pixels wide around ``centre``: sword, bow,
    crit and star (a red or ink star), shield, hit (a burst), skull, heart; blank is empty; any
    other symbol its first letters (one with ``short``, else two)."""
    name = name.lower()
    cx, cy = centre
    s = w * 0.32
    thick = max(2, w // 14)
    if name == "sword":
        pygame.draw.line(sprite, ink, (cx - s, cy + s), (cx + s, cy - s), thick)
        pygame.draw.line(sprite, ink, (cx - s * 0.9, cy + s * 0.2), (cx - s * 0.2, cy + s * 0.9), thick)
    elif name == "bow":
        pygame.draw.arc(sprite, ink, pygame.Rect(cx - s * 1.5, cy - s, s * 2.2, s * 2), -1.2, 1.2, thick)
        pygame.draw.line(sprite, ink, (cx + s * 0.05, cy - s * 0.95), (cx + s * 0.05, cy + s * 0.95), 1)
        pygame.draw.line(sprite, ink, (cx - s, cy), (cx + s, cy), max(1, thick - 1))
    elif name in ("crit", "star"):
        points = _star(cx, cy, s * 1.15, s * 0.5, 5)
        pygame.draw.polygon(sprite, (230, 60, 50) if name == "crit" else ink, points)
        pygame.draw.polygon(sprite, ink, points, 1)
    elif name == "shield":
        points = [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy), (cx, cy + s * 1.2), (cx - s, cy)]
        pygame.draw.polygon(sprite, ink, points, thick)
    elif name == "hit":
        pygame.draw.polygon(sprite, ink, _star(cx, cy, s * 1.2, s * 0.45, 8))
    elif name == "skull":
        body = sprite.get_at((round(cx), round(cy)))  # the die's colour: the eyes are holes in it
        pygame.draw.circle(sprite, ink, (round(cx), round(cy - s * 0.2)), max(2, round(s * 0.9)))
        pygame.draw.rect(sprite, ink, pygame.Rect(round(cx - s * 0.5), round(cy + s * 0.3),
                                                  max(2, round(s)), max(2, round(s * 0.6))))
        for dx in (-0.4, 0.4):
            pygame.draw.circle(sprite, body, (round(cx + dx * s), round(cy - s * 0.25)),
                               max(1, round(s * 0.25)))
    elif name == "heart":
        r = max(2, round(s * 0.55))
        pygame.draw.circle(sprite, (220, 50, 70), (round(cx - s * 0.45), round(cy - s * 0.3)), r)
        pygame.draw.circle(sprite, (220, 50, 70), (round(cx + s * 0.45), round(cy - s * 0.3)), r)
        pygame.draw.polygon(sprite, (220, 50, 70), [(cx - s, cy - s * 0.15), (cx + s, cy - s * 0.15),
                                                    (cx, cy + s * 1.05)])
    elif name in BLANK_SYMBOLS:
        return
    else:
        label = font.render(name[:1] if short else name[:2], True, ink)
        sprite.blit(label, label.get_rect(center=(cx, cy)))


def _shrink(point: tuple[int, int] | None, scale: float, area: pygame.Rect) -> tuple[int, int] | None:
    """A screen point in UI units from the corner of ``area`` (for parts drawn at the logical size)."""
    return None if point is None else (round((point[0] - area.x) / scale), round((point[1] - area.y) / scale))


def _star(cx: float, cy: float, outer: float, inner: float, tips: int) -> list[tuple[float, float]]:
    """The points of a star with ``tips`` tips, the first pointing up."""
    points = []
    for i in range(2 * tips):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / tips
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points
